/**
 * The newsletter link routes against mangled, over-long, forged, truncated and swapped tokens in
 * the path, on PGlite and PostgreSQL: confirm and unsubscribe refuse them (400 malformed, 404
 * unknown) and change nothing, the link pages' lookup names them without throwing, the open pixel
 * is served and counts nothing, and a click goes nowhere. A click redirects only to the http(s)
 * URL its delivery's MAC was made for, in a form a header can carry. Every refusal is the right
 * status with the JSON error shape (never a 500, never a stack).
 */
import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { lookUpLink } from "@/app/newsletters/link-page";
import { clickUrl } from "@/server/newsletters/links";
import type { TNewsletterTokenPurpose } from "@/server/newsletters/tokens";
import {
  endlessStream,
  expectRefused,
  forgetRateLimits,
  hostileSetup,
  snapshot,
  tokenPath,
  type Handler,
  type HostileFixture,
} from "@/server/testing/hostile-newsletters";

import * as clickRoute from "./click/[token]/route";
import * as confirmRoute from "./confirm/[token]/route";
import * as openRoute from "./open/[token]/route";
import * as unsubscribeRoute from "./unsubscribe/[token]/route";

/** `method` on a link route with `token` in its path and params (the host header always set). */
function withToken(handler: Handler, method: string, route: string, token: string, init: RequestInit = {}) {
  return handler(
    new Request(`http://localhost${tokenPath(route, token)}`, {
      method,
      ...init,
      headers: { host: "localhost", ...(init.headers as Record<string, string> | undefined) },
    }),
    { params: Promise.resolve({ token }) },
  );
}

/** Tokens that no link of Masthead's ever holds, built from the fixture's real ones. */
function badTokens(f: HostileFixture, purpose: TNewsletterTokenPurpose, id: number | bigint) {
  const good = f.sign(purpose, id);
  const mac = good.split(".")[2]!;
  return {
    malformed: [
      ["bad percent-encoding", "%E0%A4%A"],
      ["bad percent-encoding in the id", `${purpose}.%ZZ.${mac}`],
      ["a lone percent sign", "%"],
      ["over-long (10 kB)", `${purpose}.${id}.${"A".repeat(10_000)}`],
      ["over-long id", `${purpose}.${"9".repeat(40)}.${mac}`],
      ["truncated", good.slice(0, -1)],
      ["truncated to the id", `${purpose}.${id}`],
      ["a Cyrillic letter in the purpose", good.replace(purpose[1]!, "\u043e")],
      ["a line break", `${good}\r\nSet-Cookie: x=1`],
      ["empty", ""],
      ["the NUL character", `${good}\u0000`],
    ] as const,
    unknown: [
      ["signed with another key", f.sign(purpose, id, f.account.id, randomBytes(32))],
      ["signed for another account", f.sign(purpose, id, f.other.id)],
      [
        "another account's row with this account's MAC",
        `${purpose}.${purpose === "delivery" ? f.otherDelivery.id : f.zedDaily.id}.${mac}`,
      ],
      [
        "another row's id with this row's MAC",
        `${purpose}.${purpose === "delivery" ? f.delivery.id + 1n : f.boDaily.id}.${mac}`,
      ],
      ["an id beyond a 32-bit integer", f.sign(purpose, 2_147_483_648)],
      ["an id beyond a 64-bit integer", f.sign(purpose, 9_999_999_999_999_999_999n)],
      ["a changed character in the MAC", `${good.slice(0, -1)}${good.endsWith("A") ? "B" : "A"}`],
    ] as const,
  };
}

describe("link tokens in the path", () => {
  it("confirm: a malformed token is 400, a forged, truncated or swapped one 404, and neither confirms", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const { malformed, unknown } = badTokens(f, "confirm", f.boWeekly.id);
    for (const [what, token] of malformed) {
      forgetRateLimits();
      await expectRefused(await withToken(confirmRoute.POST, "POST", "confirm", token), 400, what);
    }
    for (const [what, token] of [
      ...unknown,
      ["an unsubscribe token", f.sign("unsubscribe", f.boWeekly.id)],
      ["a delivery token", f.sign("delivery", f.delivery.id)],
    ] as const) {
      forgetRateLimits();
      await expectRefused(await withToken(confirmRoute.POST, "POST", "confirm", token), 404, what);
    }
    expect(await snapshot(f.db)).toBe(before);
    // The real token still works: the refusals above were about the tokens.
    expect((await withToken(confirmRoute.POST, "POST", "confirm", f.sign("confirm", f.boWeekly.id))).status).toBe(200);
  });

  it("unsubscribe (GET and POST): a malformed token is 400, a forged one 404, and neither unsubscribes", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    for (const [purpose, id] of [
      ["unsubscribe", f.adaDaily.id],
      ["delivery", f.delivery.id],
    ] as const) {
      const { malformed, unknown } = badTokens(f, purpose, id);
      for (const method of ["GET", "POST"] as const) {
        const handler = unsubscribeRoute[method];
        const init = method === "POST" ? { body: "List-Unsubscribe=One-Click" } : {};
        for (const [what, token] of malformed) {
          forgetRateLimits();
          await expectRefused(await withToken(handler, method, "unsubscribe", token, init), 400, `${method} ${what}`);
        }
        for (const [what, token] of [...unknown, ["a confirm token", f.sign("confirm", id)]] as const) {
          forgetRateLimits();
          await expectRefused(await withToken(handler, method, "unsubscribe", token, init), 404, `${method} ${what}`);
        }
      }
    }
    // A one-click body is one short field: a large one is refused before anything is done.
    const valid = f.sign("unsubscribe", f.adaDaily.id);
    for (const [what, body] of [
      ["1 MB", "List-Unsubscribe=One-Click&".padEnd(1 << 20, "x")],
      ["an endless stream", endlessStream()],
    ] as const) {
      forgetRateLimits();
      const res = await withToken(unsubscribeRoute.POST, "POST", "unsubscribe", valid, {
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        duplex: "half",
      } as RequestInit);
      await expectRefused(res, 413, what);
    }
    expect(await snapshot(f.db)).toBe(before);
  });

  it("the link pages' lookup names a malformed or unknown token as such, without throwing", async () => {
    const f = await hostileSetup();
    const { malformed, unknown } = badTokens(f, "delivery", f.delivery.id);
    for (const [what, token] of malformed) {
      expect(await lookUpLink(token, ["unsubscribe", "delivery"]), what).toEqual({ ok: false, problem: "malformed" });
    }
    for (const [what, token] of unknown) {
      expect(await lookUpLink(token, ["unsubscribe", "delivery"]), what).toEqual({ ok: false, problem: "unknown" });
      expect(await lookUpLink(token.replace("delivery", "confirm"), ["confirm"]), what).toMatchObject({ ok: false });
    }
  });

  it("open: any bad token still gets the pixel and counts nothing", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const { malformed, unknown } = badTokens(f, "delivery", f.delivery.id);
    const tokens = [...malformed, ...unknown, ["a megabyte", "delivery.1.".padEnd(1 << 20, "A")]] as const;
    for (const [what, token] of tokens.filter(([, t]) => !t.includes("\u0000"))) {
      forgetRateLimits();
      const res = await withToken(openRoute.GET, "GET", "open", token);
      expect(res.status, what).toBe(200);
      expect(res.headers.get("content-type"), what).toBe("image/gif");
    }
    // The input guard refuses text PostgreSQL cannot hold before any route sees it.
    await expectRefused(await withToken(openRoute.GET, "GET", "open", "delivery.1.\u0000"), 400, "NUL");
    expect(await snapshot(f.db)).toBe(before);
  });

  it("click: a bad token or MAC is 400 and redirects nowhere", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const target = "https://news.example.com/story";
    const h = new URL(
      clickUrl({
        baseUrl: "http://localhost",
        key: f.key,
        accountId: f.account.id,
        deliveryId: f.delivery.id,
        url: target,
      }),
    ).searchParams.get("h")!;
    const { malformed, unknown } = badTokens(f, "delivery", f.delivery.id);
    for (const [what, token] of [...malformed, ...unknown]) {
      forgetRateLimits();
      const res = await clickRoute.GET(
        new Request(`http://localhost${tokenPath("click", token)}?u=${encodeURIComponent(target)}&h=${h}`),
        { params: Promise.resolve({ token }) },
      );
      expect(res.headers.get("location"), what).toBeNull();
      await expectRefused(res, 400, what);
    }
    expect(await snapshot(f.db)).toBe(before);
  });
});

describe("click redirects", () => {
  it("go only to the http(s) URL the delivery's MAC was made for", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const token = f.sign("delivery", f.delivery.id);
    const macFor = (url: string, deliveryId: bigint = f.delivery.id, accountId = f.account.id) =>
      new URL(clickUrl({ baseUrl: "http://localhost", key: f.key, accountId, deliveryId, url })).searchParams.get("h")!;
    const click = (query: string) =>
      clickRoute.GET(new Request(`http://localhost${tokenPath("click", token)}?${query}`), {
        params: Promise.resolve({ token }),
      });
    const q = (u: string, h: string) => `u=${encodeURIComponent(u)}&h=${encodeURIComponent(h)}`;
    const signed = "https://news.example.com/story";
    const cases: [string, string][] = [
      [
        "javascript: (even with a MAC made for it)",
        q("javascript:alert(document.cookie)", macFor("javascript:alert(document.cookie)")),
      ],
      ["JavaScript: in mixed case with a tab", q("Java\tScript:alert(1)", macFor("Java\tScript:alert(1)"))],
      ["data:", q("data:text/html,<script>alert(1)</script>", macFor("data:text/html,<script>alert(1)</script>"))],
      ["relative", q("/admin", macFor("/admin"))],
      ["protocol-relative", q("//evil.example/phish", macFor("//evil.example/phish"))],
      ["another host with the signed URL's MAC", q("https://evil.example/story", macFor(signed))],
      ["the signed URL with a suffix", q(`${signed}.evil.example`, macFor(signed))],
      ["the signed URL with credentials", q("https://news.example.com@evil.example/story", macFor(signed))],
      ["a tampered MAC", q(signed, `${macFor(signed).slice(0, -1)}${macFor(signed).endsWith("A") ? "B" : "A"}`)],
      ["a truncated MAC", q(signed, macFor(signed).slice(0, 10))],
      ["an over-long MAC", q(signed, "A".repeat(65))],
      ["another delivery's MAC", q(signed, macFor(signed, f.delivery.id + 1n))],
      ["another account's MAC", q(signed, macFor(signed, f.delivery.id, f.other.id))],
      ["no MAC", `u=${encodeURIComponent(signed)}`],
      ["no URL", `h=${macFor(signed)}`],
      ["an over-long URL", q(`https://news.example.com/${"a".repeat(5000)}`, macFor(signed))],
      ["a line break added to the signed URL", q(`${signed}\r\nSet-Cookie: x=1`, macFor(signed))],
      ["malformed percent-encoding", `u=%E0%A4%A&h=${macFor(signed)}`],
      ["the NUL character", q(`${signed}\u0000`, macFor(signed))],
      ["the URL twice", `${q(signed, macFor(signed))}&u=${encodeURIComponent("https://evil.example/")}`],
    ];
    for (const [what, query] of cases) {
      forgetRateLimits();
      const res = await click(query);
      expect(res.headers.get("location"), what).toBeNull();
      await expectRefused(res, 400, what);
    }
    expect(await snapshot(f.db)).toBe(before);

    const ok = await click(q(signed, macFor(signed)));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(signed);
  });

  it("a signed URL with characters a header cannot carry redirects to its encoded form", async () => {
    const f = await hostileSetup();
    const token = f.sign("delivery", f.delivery.id);
    const urls = [
      "https://news.example.com/caf\u00e9?q=\u00fcber",
      "https://n\u00e9ws.example/\u2603",
      "https://news.example.com/story\r\nSet-Cookie: x=1",
      "https://news.example.com/a b",
    ];
    for (const url of urls) {
      forgetRateLimits();
      const h = new URL(
        clickUrl({ baseUrl: "http://localhost", key: f.key, accountId: f.account.id, deliveryId: f.delivery.id, url }),
      ).searchParams.get("h")!;
      const res = await clickRoute.GET(
        new Request(`http://localhost${tokenPath("click", token)}?u=${encodeURIComponent(url)}&h=${h}`),
        { params: Promise.resolve({ token }) },
      );
      expect(res.status, url).toBe(302);
      expect(res.headers.get("location"), url).toBe(new URL(url).href);
      expect(res.headers.get("set-cookie"), url).toBeNull();
    }
    expect(await f.db.newsletterClick.count()).toBe(urls.length);
  });
});
