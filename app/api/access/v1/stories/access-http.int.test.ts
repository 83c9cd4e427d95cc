/**
 * What the access routes require and answer over HTTP: AMP's readerId (required by amp-access and
 * amp-pingback, not by the web's check), pingback bodies (a JSON object, as text/plain or JSON),
 * AMP's CORS (the publication's origins and AMP caches, 403 otherwise, kept on errors), and the
 * opt-in 402 on story reads (check-access=true: the story with its grant, or 402 with the grant).
 */
import { describe, expect, it } from "vitest";

import { GET as STORY_BY_SLUG } from "@/app/api/v1/stories-by-slug/route";
import { GET as STORY_BY_ID } from "@/app/api/v1/stories/[storyId]/route";
import { getDb } from "@/server/db";
import type { AccessGrant } from "@/server/subscriptions/access/access";
import { ampAccess, createAccessFixture, forward, send, views } from "@/server/testing/access-calls";
import { insertPlanWithAssets, insertSubscription, setMeter } from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";

import { GET as ACCESS } from "./[storyId]/access/route";
import { GET as AMP_ACCESS } from "./[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "./[storyId]/amp-pingback/route";
import { POST as PINGBACK } from "./[storyId]/pingback/route";

const setup = async () => createAccessFixture(await getDb());

describe("AMP's reader id", () => {
  it("is required by amp-access and amp-pingback (400, nothing counted), not by the web's check", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const s = await story("subscription");
    for (const query of [{ key }, { key, readerId: "" }, { key, readerId: "  " }]) {
      const res = await forward(AMP_ACCESS, s.id, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "BAD_REQUEST",
          message: expect.stringMatching(/^readerId is required/) as string,
          details: [{ field: "readerId", issue: "required" }],
        },
      });
      const ping = await forward(AMP_PINGBACK, s.id, query, {
        method: "POST",
        body: JSON.stringify({ granted: true, grantReason: "METERING" }),
        headers: { "content-type": "text/plain" },
      });
      expect(ping.status).toBe(400);
    }
    expect(await views(db, account.id)).toBe(0);
    // AMP's own call, as @quintype/amp builds it (readerId=READER_ID substituted by the AMP runtime).
    expect(await ampAccess(s.id, { key, accesstype_integration_id: "7", readerId: "amp-Xy_9" })).toMatchObject({
      granted: true,
      grantReason: "METERING",
    });
    expect((await send(ACCESS, s.id, { key })).status).toBe(200);
  });
});

describe("pingback bodies and AMP CORS", () => {
  it("refuses a body that is not JSON, or not an object (400), and takes JSON too", async () => {
    const { key, story } = await setup();
    const s = await story("subscription");
    for (const body of ["granted=true", '{"granted": tru', "[1,2]", "42", '{"granted": "yes"}']) {
      const res = await forward(
        AMP_PINGBACK,
        s.id,
        { key, readerId: "r" },
        { method: "POST", body, headers: { "content-type": "text/plain" } },
      );
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("BAD_REQUEST");
    }
    const json = await send(
      PINGBACK,
      s.id,
      { key, readerId: "r" },
      { method: "POST", body: '{"granted":false}', headers: { "content-type": "application/json" } },
    );
    expect(json.status).toBe(200);
    const form = await send(
      PINGBACK,
      s.id,
      { key, readerId: "r" },
      { method: "POST", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } },
    );
    expect(form.status).toBe(415);
  });

  it("answers AMP's CORS for the publication's origins and AMP caches, 403 otherwise", async () => {
    const { key, story } = await setup(); // site URL https://news.example.com, domain localhost
    const s = await story("public");
    const amp = (headers: Record<string, string>, source = "https://news.example.com") =>
      forward(AMP_ACCESS, s.id, { key, readerId: "r", __amp_source_origin: source }, { headers });
    let res = await amp({ origin: "https://news-example-com.cdn.ampproject.org" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://news-example-com.cdn.ampproject.org");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("amp-access-control-allow-source-origin")).toBe("https://news.example.com");
    expect(res.headers.get("access-control-expose-headers")).toContain("AMP-Access-Control-Allow-Source-Origin");
    res = await amp({ origin: "https://news.example.com" });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://news.example.com");
    res = await amp({ "amp-same-origin": "true" });
    expect(res.status).toBe(200);
    expect(res.headers.get("amp-access-control-allow-source-origin")).toBe("https://news.example.com");
    expect((await amp({ origin: "https://evil.example" })).status).toBe(403);
    expect((await amp({ origin: "https://news-example-com.cdn.ampproject.org" }, "https://evil.example")).status).toBe(
      403,
    );
    // The pingback too, and an error keeps the AMP headers so the runtime can read it.
    const ping = await forward(
      AMP_PINGBACK,
      s.id,
      { key, readerId: "r", __amp_source_origin: "https://news.example.com" },
      {
        method: "POST",
        body: "nope",
        headers: { origin: "https://news-example-com.cdn.ampproject.org", "content-type": "text/plain" },
      },
    );
    expect(ping.status).toBe(400);
    const missing = await forward(
      AMP_ACCESS,
      "7f8e0d62-0000-4000-8000-000000000000",
      { key, readerId: "r", __amp_source_origin: "https://news.example.com" },
      {
        headers: { origin: "https://news-example-com.cdn.ampproject.org" },
      },
    );
    expect(missing.status).toBe(404);
    expect(missing.headers.get("amp-access-control-allow-source-origin")).toBe("https://news.example.com");
    // No readerId (spec: required): 400, which AMP can read too.
    const unnamed = await forward(
      AMP_ACCESS,
      "7f8e0d62-0000-4000-8000-000000000000",
      { key, __amp_source_origin: "https://news.example.com" },
      { headers: { origin: "https://news-example-com.cdn.ampproject.org" } },
    );
    expect(unnamed.status).toBe(400);
    expect(unnamed.headers.get("amp-access-control-allow-source-origin")).toBe("https://news.example.com");
  });
});

describe("402 on story reads (opt-in)", () => {
  it("answers the story with its grant, or 402 with the grant and no story; nothing changes without the opt-in", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 1 });
    const [a, b] = [await story("subscription"), await story("subscription")];
    const byId = (id: string, query: string) =>
      STORY_BY_ID(new Request(`http://localhost/api/v1/stories/${id}?${query}`, { headers: { host: "localhost" } }), {
        params: Promise.resolve({ storyId: id }),
      });
    // Without the opt-in: the public, cacheable answer, as existing content clients get it.
    let res = await byId(b.id, "");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("public");
    expect(Object.keys((await res.json()) as object)).toEqual(["story"]);

    res = await byId(a.id, `check-access=true&key=${key}&readerId=web-9&count=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const granted = (await res.json()) as { story: { id: string }; access: AccessGrant };
    expect(granted.story.id).toBe(a.id);
    expect(granted.access).toMatchObject({ granted: true, grantReason: "METERING", data: { isLast: true } });

    const slug = (await db.story.findUniqueOrThrow({ where: { id: b.id } })).slug;
    res = await STORY_BY_SLUG(
      new Request(
        `http://localhost/api/v1/stories-by-slug?slug=${encodeURIComponent(slug)}&check-access=true&key=${key}&readerId=web-9`,
        {
          headers: { host: "localhost" },
        },
      ),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(402);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const denied = (await res.json()) as { story?: unknown; error: { code: string }; access: AccessGrant };
    expect(denied.story).toBeUndefined();
    expect(denied.error.code).toBe("PAYMENT_REQUIRED");
    expect(denied.access).toEqual({
      granted: false,
      grantReason: null,
      data: { numberRemaining: 0, isLoggedIn: false, isLast: false, wall: "paid" },
    });

    // A subscriber reads it; another account's key or none is 401.
    const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const m = await db.member.create({
      data: {
        accountId: account.id,
        name: "S",
        email: "s-402@example.com",
        passwordHash: "!x",
        identities: { create: { accountId: account.id, provider: "publisher", externalId: "s-402" } },
      },
    });
    await insertSubscription(db, {
      accountId: account.id,
      memberId: m.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
    });
    res = await byId(
      b.id,
      `check-access=true&key=${key}&accesstype_jwt=${await readerJwt({ id: "s-402", name: "S" })}&disable-meter=true`,
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { access: AccessGrant }).access.grantReason).toBe("SUBSCRIBER");
    const other = await setup();
    expect((await byId(b.id, `check-access=true&key=${other.key}`)).status).toBe(401);
    expect((await byId(b.id, "check-access=true")).status).toBe(401);
  });
});

describe("a reader token whose claims hold text the database cannot store", () => {
  it("is refused with 400 naming the claim on all four routes, and counts nothing", async () => {
    const { db, account, key, serverKey, story } = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const s = await story("subscription");
    for (const [claims, field] of [
      [{ id: "x\ud800", name: "n" }, "jwt.id"],
      [{ id: "r\u0000", name: "n" }, "jwt.id"],
      [{ id: "r", name: "n\udc00" }, "jwt.name"],
      [{ id: "r", name: "n", email: "a\u0000@b.test" }, "jwt.email"],
    ] as const) {
      const jwt = await readerJwt(claims);
      const responses = [
        await send(ACCESS, s.id, { key, masthead_jwt: jwt }),
        await forward(AMP_ACCESS, s.id, { key, readerId: "amp-1", masthead_jwt: jwt }),
        await send(
          PINGBACK,
          s.id,
          { masthead_jwt: jwt },
          { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-subauth": serverKey } },
        ),
        await forward(
          AMP_PINGBACK,
          s.id,
          { key, readerId: "amp-1", masthead_jwt: jwt },
          { method: "POST", body: "{}", headers: { "content-type": "text/plain" } },
        ),
      ];
      for (const res of responses) {
        expect(res.status, JSON.stringify(claims)).toBe(400);
        expect(((await res.json()) as { error: { details: { field: string }[] } }).error.details).toEqual([
          expect.objectContaining({ field }),
        ]);
      }
    }
    expect(await views(db, account.id)).toBe(0);
  });
});
