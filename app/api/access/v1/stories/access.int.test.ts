/**
 * The access decision and the AMP meter: GET …/access, GET …/amp-access, POST …/amp-pingback and
 * POST …/pingback (client key or X-SUBAUTH, optional reader JWT), and decideAccess itself.
 */
import { describe, expect, it } from "vitest";

import { GET as STORY_BY_SLUG } from "@/app/api/v1/stories-by-slug/route";
import { GET as STORY_BY_ID } from "@/app/api/v1/stories/[storyId]/route";
import { createApiKey } from "@/server/accounts/api-keys";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { decideAccess, type AccessGrant } from "@/server/subscriptions/access";
import { insertMember, insertPlanWithAssets, insertSubscription, setMeter } from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";
import { createTestPublisher, insertStory } from "@/server/testing/publishing-factories";

import { GET as ACCESS } from "./[storyId]/access/route";
import { GET as AMP_ACCESS } from "./[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "./[storyId]/amp-pingback/route";
import { POST as PINGBACK } from "./[storyId]/pingback/route";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const { key: serverKey } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  const story = (access: string, level?: number) =>
    insertStory(db, account.id, { access }).then(async (s) =>
      level === undefined ? s : db.story.update({ where: { id: s.id }, data: { accessLevelValue: level } }),
    );
  return { db, account, key, serverKey, story };
}

function send(
  handler: Handler,
  storyId: string,
  query: Record<string, string | undefined>,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return handler(
    new Request(`http://localhost/api/access/v1/stories/${storyId}/x?${qs}`, {
      method: init.method ?? "GET",
      headers: { host: "localhost", ...init.headers },
      body: init.body,
    }),
    { params: Promise.resolve({ storyId }) },
  );
}

async function ampAccess(storyId: string, query: Record<string, string | undefined>) {
  const res = await send(AMP_ACCESS, storyId, query);
  expect(res.status).toBe(200);
  return (await res.json()) as AccessGrant;
}

async function pingback(storyId: string, query: Record<string, string | undefined>, handler: Handler = AMP_PINGBACK) {
  const res = await send(handler, storyId, query, {
    method: "POST",
    body: JSON.stringify({ granted: true, grantReason: "METERING", data: { numberRemaining: 1, isLoggedIn: false } }),
    headers: { "content-type": "text/plain;charset=UTF-8" },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
}

const views = (db: Db, accountId: number) => db.meterView.count({ where: { accountId } });

describe("access decision: grant reasons", () => {
  it("FREE for public stories, LOGGED_IN for login stories with a JWT, login_required without", async () => {
    const { key, story } = await setup();
    const pub = await story("public");
    const login = await story("login");
    expect(await ampAccess(pub.id, { key, readerId: "amp-1" })).toEqual({
      granted: true,
      grantReason: "FREE",
      data: { numberRemaining: null, isLoggedIn: false, isLast: false },
    });
    const jwt = await readerJwt({ id: "u-1", name: "Ada" });
    expect(await ampAccess(login.id, { key, readerId: "amp-1", accesstype_jwt: jwt })).toMatchObject({
      granted: true,
      grantReason: "LOGGED_IN",
      data: { isLoggedIn: true },
    });
    expect(await ampAccess(login.id, { key, readerId: "amp-1" })).toMatchObject({ granted: false, grantReason: null });
  });

  it("SUBSCRIBER by a site asset, by story assets up to their access level, never by a static asset", async () => {
    const { db, account, story } = await setup();
    const [open, level3, level7] = [
      await story("subscription"),
      await story("subscription", 3),
      await story("subscription", 7),
    ];
    const site = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const story5 = await insertPlanWithAssets(db, account.id, {
      planAssets: [{ type: "STORY", metadata: { access_level: 5 } }],
    });
    const staticOnly = await insertPlanWithAssets(db, account.id, { planAssets: [{ type: "STATIC" }] });
    const displayOnly = await insertPlanWithAssets(db, account.id, {
      planAssets: [{ type: "SITE", role: "DISPLAY_ASSETS" }],
    });
    const noAssets = await insertPlanWithAssets(db, account.id);
    const campaign = await insertPlanWithAssets(db, account.id, { type: "CAMPAIGN" });

    const decide = async (memberId: number, storyId: string, disableMeter = true) =>
      decideAccess(db, {
        accountId: account.id,
        storyId,
        reader: { memberId, readerId: null },
        disableMeter,
        now: new Date(),
        meter: "check",
      });
    const reader = async (plan: { plan: { id: number }; group: { id: number } }, type?: "CAMPAIGN") => {
      const m = await insertMember(db, account.id);
      await insertSubscription(db, {
        accountId: account.id,
        memberId: m.id,
        planId: plan.plan.id,
        groupId: plan.group.id,
        type,
      });
      return m.id;
    };
    const siteReader = await reader(site);
    for (const s of [open, level3, level7])
      expect(await decide(siteReader, s.id)).toMatchObject({ granted: true, grantReason: "SUBSCRIBER" });
    const levelReader = await reader(story5);
    expect((await decide(levelReader, open.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(levelReader, level3.id)).grantReason).toBe("SUBSCRIBER");
    expect(await decide(levelReader, level7.id)).toMatchObject({ granted: false, why: "hard_paywall" });
    expect((await decide(await reader(staticOnly), open.id)).granted).toBe(false);
    // Display assets grant nothing: a plan naming only a display asset (its group none) grants no
    // asset at all, which is the documented "no assets: every story" rule.
    expect((await decide(await reader(displayOnly), level7.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(await reader(noAssets), level7.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(await reader(campaign, "CAMPAIGN"), open.id)).granted).toBe(false);
  });

  it("grants only while the subscription grants access: not pending, expired, deleted or future; cancelled until its end; grace", async () => {
    const { db, account, key, story } = await setup();
    const s = await story("subscription");
    const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const now = Date.now();
    const cases: [Parameters<typeof insertSubscription>[1] extends infer A ? Partial<A> : never, boolean][] = [
      [{ status: "PENDING" }, false],
      [{ status: "FAILED" }, false],
      [{ end: new Date(now - 1000) }, false],
      [{ start: new Date(now + 3600_000) }, false],
      [{ deletedAt: new Date(now - 1000) }, false],
      [{ status: "CANCELLED" }, true],
      [{ end: null }, true],
      [{ end: new Date(now - 1000), graceEndsAt: new Date(now + 3600_000) }, true],
    ];
    for (const [i, [overrides, granted]] of cases.entries()) {
      const id = `sub-${i}`;
      const m = await db.member.create({
        data: {
          accountId: account.id,
          name: id,
          email: `${id}@example.com`,
          passwordHash: "!x",
          identities: { create: { accountId: account.id, provider: "publisher", externalId: id } },
        },
      });
      await insertSubscription(db, {
        accountId: account.id,
        memberId: m.id,
        planId: plan.plan.id,
        groupId: plan.group.id,
        ...overrides,
      });
      const answer = await ampAccess(s.id, {
        key,
        readerId: "amp-sub",
        accesstype_jwt: await readerJwt({ id, name: id }),
        "disable-meter": "true",
      });
      expect(answer.granted, JSON.stringify(overrides)).toBe(granted);
      if (granted) expect(answer.grantReason).toBe("SUBSCRIBER");
    }
  });

  it("grants members of a group_access subscription, and ASSET for pay per asset (the story, or a collection holding it)", async () => {
    const { db, account, story } = await setup();
    const [a, b, c] = [await story("subscription"), await story("subscription"), await story("subscription")];
    const plan = await insertPlanWithAssets(db, account.id, { type: "GROUP_ACCESS", groupAssets: [{ type: "SITE" }] });
    const owner = await insertMember(db, account.id);
    const member = await insertMember(db, account.id);
    const sub = await insertSubscription(db, {
      accountId: account.id,
      memberId: owner.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
      type: "GROUP_ACCESS",
    });
    await db.subscriptionMember.create({ data: { subscriptionId: sub.id, memberId: member.id } });
    const decide = (memberId: number, storyId: string) =>
      decideAccess(db, {
        accountId: account.id,
        storyId,
        reader: { memberId, readerId: null },
        disableMeter: true,
        now: new Date(),
        meter: "check",
      });
    expect((await decide(member.id, a.id)).grantReason).toBe("SUBSCRIBER");

    const collection = await db.collection.create({
      data: { accountId: account.id, name: "Series", slug: `series-${Date.now()}` },
    });
    await db.collectionItem.create({ data: { collectionId: collection.id, position: 0, storyId: b.id } });
    const buyer = await insertMember(db, account.id);
    await insertSubscription(db, {
      accountId: account.id,
      memberId: buyer.id,
      type: "DYNAMIC_ASSET",
      dynamicAssets: [
        { id: a.id, type: "story" },
        { id: collection.id, type: "collection" },
      ],
    });
    expect(await decide(buyer.id, a.id)).toMatchObject({ granted: true, grantReason: "ASSET" });
    expect(await decide(buyer.id, b.id)).toMatchObject({ granted: true, grantReason: "ASSET" });
    expect(await decide(buyer.id, c.id)).toMatchObject({ granted: false, why: "hard_paywall" });
  });

  it("answers 404 for another account's story, an unknown id, a draft and a malformed id; 401 without a key", async () => {
    const { db, key, story } = await setup();
    const other = await setup();
    const theirs = await other.story("subscription");
    const draft = await insertStory(
      db,
      (await db.story.findFirstOrThrow({ where: { id: (await story("public")).id } })).accountId,
      { status: "DRAFT" },
    );
    for (const id of [theirs.id, "7f8e0d62-0000-4000-8000-000000000000", draft.id, "not-a-uuid"]) {
      const res = await send(AMP_ACCESS, id, { key, readerId: "r" });
      expect(res.status, id).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
      expect(
        (
          await send(
            AMP_PINGBACK,
            id,
            { key, readerId: "r" },
            { method: "POST", body: "{}", headers: { "content-type": "text/plain" } },
          )
        ).status,
      ).toBe(404);
    }
    expect((await send(AMP_ACCESS, theirs.id, { readerId: "r" })).status).toBe(401);
    // X-SUBAUTH (spec §5: AMP endpoints take it) is accepted too.
    expect(
      (await send(AMP_ACCESS, theirs.id, { readerId: "r" }, { headers: { "x-subauth": other.serverKey } })).status,
    ).toBe(200);
  });
});

describe("AMP's reader id", () => {
  it("is required by amp-access and amp-pingback (400, nothing counted), not by the web's check", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const s = await story("subscription");
    for (const query of [{ key }, { key, readerId: "" }, { key, readerId: "  " }]) {
      const res = await send(AMP_ACCESS, s.id, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "BAD_REQUEST",
          message: expect.stringMatching(/^readerId is required/) as string,
          details: [{ field: "readerId", issue: "required" }],
        },
      });
      const ping = await send(AMP_PINGBACK, s.id, query, {
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

describe("the meter", () => {
  it("counts on pingback only, once per story, and says isLast on the last free story", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 2 });
    const [a, b, c] = [await story("subscription"), await story("subscription"), await story("subscription")];
    const q = { key, readerId: "amp-reader-1", accesstype_integration_id: "7" };
    const first = await ampAccess(a.id, q);
    expect(first).toEqual({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLoggedIn: false, isLast: false },
    });
    expect(await ampAccess(a.id, q)).toEqual(first); // amp-access never counts
    expect(await views(db, account.id)).toBe(0);
    await pingback(a.id, q);
    await pingback(a.id, q); // a repeated pingback changes nothing
    expect(await views(db, account.id)).toBe(1);
    // A re-read of a counted story is free and uses nothing.
    expect(await ampAccess(a.id, q)).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLast: false },
    });
    expect(await ampAccess(b.id, q)).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 0, isLast: true },
    });
    await pingback(b.id, q, PINGBACK);
    expect(await ampAccess(c.id, q)).toEqual({
      granted: false,
      grantReason: null,
      data: { numberRemaining: 0, isLoggedIn: false, isLast: false },
    });
    await pingback(c.id, q);
    expect(await views(db, account.id)).toBe(2);
    // Another anonymous reader has a meter of its own.
    expect((await ampAccess(c.id, { ...q, readerId: "amp-reader-2" })).granted).toBe(true);
  });

  it("absorbs parallel duplicate pingbacks, and parallel pingbacks of different stories never pass the limit", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const stories = await Promise.all(Array.from({ length: 6 }, () => story("subscription")));
    await Promise.all(Array.from({ length: 8 }, () => pingback(stories[0]!.id, { key, readerId: "dup" })));
    expect(await db.meterView.count({ where: { accountId: account.id, readerKey: "r:dup" } })).toBe(1);
    await Promise.all(stories.map((s) => pingback(s.id, { key, readerId: "race" })));
    expect(await db.meterView.count({ where: { accountId: account.id, readerKey: "r:race" } })).toBe(3);
  });

  it("starts again in the next calendar period (UTC)", async () => {
    const { db, account, story } = await setup();
    await setMeter(db, account.id, { freeStories: 1, periodUnit: "MONTHS" });
    const [a, b] = [await story("subscription"), await story("subscription")];
    const reader = { memberId: null, readerId: "roll" };
    const at = (iso: string) => new Date(iso);
    const decide = (storyId: string, now: Date, meter: "check" | "count") =>
      decideAccess(db, { accountId: account.id, storyId, reader, disableMeter: false, now, meter });
    expect((await decide(a.id, at("2026-03-31T23:59:00Z"), "count")).why).toBe("meter:counted");
    expect((await decide(b.id, at("2026-03-31T23:59:30Z"), "check")).why).toBe("meter_exhausted");
    expect(await decide(b.id, at("2026-04-01T00:00:00Z"), "check")).toMatchObject({
      granted: true,
      grantReason: "METERING",
      why: "meter:new",
    });
    expect((await decide(b.id, at("2026-04-01T00:00:01Z"), "count")).why).toBe("meter:counted");
    const periods = await db.meterView.findMany({ where: { accountId: account.id }, orderBy: { periodStart: "asc" } });
    expect(periods.map((p) => p.periodStart.toISOString())).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000Z",
    ]);
  });

  it("meters a logged-in reader by member across devices (readerIds), and not by its anonymous history", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 2 });
    const [a, b, c] = [await story("subscription"), await story("subscription"), await story("subscription")];
    // Anonymous reads on the phone first: they stay the device's.
    await pingback(a.id, { key, readerId: "phone" });
    await pingback(b.id, { key, readerId: "phone" });
    const jwt = await readerJwt({ id: "traveller", name: "Tess" });
    const phone = { key, readerId: "phone", svc_jwt: jwt };
    const laptop = { key, readerId: "laptop", accesstype_jwt: jwt };
    expect(await ampAccess(a.id, phone)).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLoggedIn: true },
    });
    await pingback(a.id, phone);
    expect(await ampAccess(a.id, laptop)).toMatchObject({ granted: true, data: { numberRemaining: 1, isLast: false } });
    await pingback(a.id, laptop); // the same story on another device: counted once
    await pingback(b.id, laptop);
    expect(await ampAccess(c.id, phone)).toMatchObject({ granted: false });
    const member = await db.memberIdentity.findFirstOrThrow({
      where: { accountId: account.id, externalId: "traveller" },
    });
    expect(await db.meterView.count({ where: { accountId: account.id, readerKey: `m:${member.memberId}` } })).toBe(2);
  });

  it("never meters hard-paywalled stories; subscribers still read them", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 5 });
    const s = await story("subscription");
    const q = { key, readerId: "hard", "disable-meter": "true" };
    expect(await ampAccess(s.id, q)).toMatchObject({ granted: false, grantReason: null });
    await pingback(s.id, q);
    expect(await views(db, account.id)).toBe(0);
    const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const m = await insertMember(db, account.id);
    await insertSubscription(db, {
      accountId: account.id,
      memberId: m.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
    });
    expect(
      await decideAccess(db, {
        accountId: account.id,
        storyId: s.id,
        reader: { memberId: m.id, readerId: null },
        disableMeter: true,
        now: new Date(),
        meter: "count",
      }),
    ).toMatchObject({ granted: true, grantReason: "SUBSCRIBER" });
    expect(await views(db, account.id)).toBe(0);
  });

  it("is off without settings or when disabled, and can leave anonymous readers out", async () => {
    const { db, account, key, story } = await setup();
    const s = await story("subscription");
    const decide = (reader: { memberId: number | null; readerId: string | null; jwtUserId?: string }) =>
      decideAccess(db, {
        accountId: account.id,
        storyId: s.id,
        reader,
        disableMeter: false,
        now: new Date(),
        meter: "check",
      });
    expect((await decide({ memberId: null, readerId: "x" })).why).toBe("meter_off");
    await setMeter(db, account.id, { enabled: false });
    expect((await decide({ memberId: null, readerId: "x" })).why).toBe("meter_off");
    await setMeter(db, account.id, { meterAnonymous: false });
    expect((await decide({ memberId: null, readerId: "x" })).why).toBe("anonymous_not_metered");
    expect((await decide({ memberId: null, readerId: null })).why).toBe("anonymous_not_metered");
    expect(await decide({ memberId: null, readerId: null, jwtUserId: "new-reader" })).toMatchObject({
      granted: true,
      grantReason: "METERING",
      why: "meter:new",
    });
    await setMeter(db, account.id, { meterAnonymous: true });
    expect((await decide({ memberId: null, readerId: null })).why).toBe("no_reader");
    expect(await ampAccess(s.id, { key, readerId: "x" })).toMatchObject({ granted: true, grantReason: "METERING" });
  });

  it("the web check counts when asked (count=true), sharing the meter with AMP", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 1 });
    const [a, b] = [await story("subscription"), await story("subscription")];
    const res = await send(ACCESS, a.id, { key, readerId: "web-1", count: "true" });
    expect(await res.json()).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 0, isLast: true },
    });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await views(db, account.id)).toBe(1);
    await pingback(a.id, { key, readerId: "web-1" }, PINGBACK); // the SDK's pingback after it: absorbed
    expect(await views(db, account.id)).toBe(1);
    expect(await ampAccess(b.id, { key, readerId: "web-1" })).toMatchObject({ granted: false });
  });
});

describe("pingback bodies and AMP CORS", () => {
  it("refuses a body that is not JSON, or not an object (400), and takes JSON too", async () => {
    const { key, story } = await setup();
    const s = await story("subscription");
    for (const body of ["granted=true", '{"granted": tru', "[1,2]", "42", '{"granted": "yes"}']) {
      const res = await send(
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
      send(AMP_ACCESS, s.id, { key, readerId: "r", __amp_source_origin: source }, { headers });
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
    const ping = await send(
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
    const missing = await send(
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
    const unnamed = await send(
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
      data: { numberRemaining: 0, isLoggedIn: false, isLast: false },
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
