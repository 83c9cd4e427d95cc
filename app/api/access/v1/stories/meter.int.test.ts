/**
 * The meter (AMP and the web alike): counted on a pingback, once per story and reader, never past
 * the limit under parallel pingbacks; a new count each calendar period (UTC); a signed-in reader
 * metered as one member across devices; hard-paywalled stories never metered; off without
 * settings, when disabled, or for anonymous readers when the account says so; and the web check
 * counting when asked (count=true).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { decideAccess } from "@/server/subscriptions/access/access";
import { ampAccess, createAccessFixture, pingback, send, views } from "@/server/testing/access-calls";
import { insertPlanWithAssets, insertSubscriber, setMeter } from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";

import { GET as ACCESS } from "./[storyId]/access/route";
import { POST as PINGBACK } from "./[storyId]/pingback/route";

const setup = async () => createAccessFixture(await getDb());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
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
      data: { numberRemaining: 1, isLoggedIn: false, isLast: false, wall: null },
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
      data: { numberRemaining: 0, isLoggedIn: false, isLast: false, wall: "paid" },
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
    const m = await insertSubscriber(db, account.id, plan);
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
