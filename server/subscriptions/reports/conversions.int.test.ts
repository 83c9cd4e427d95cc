/**
 * Which stories convert, on PGlite and PostgreSQL: a denied access check (web or AMP) records one
 * wall hit per reader, story and day, however often and however concurrently it is asked; a JWT
 * check, checkout and sign-up link the reader id to the member; the loader attributes a member's
 * conversions over two devices, not after 25 hours, counts a story with no hits as nothing, and
 * the CSV answers a bad range with 400 JSON.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

import { GET as WEB_ACCESS } from "@/app/api/access/v1/stories/[storyId]/access/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { ampAccess, createAccessFixture, send } from "@/server/testing/access-calls";
import { insertMember, insertSubscription } from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";
import { insertStory } from "@/server/testing/publishing-factories";
import { createTestTeam } from "@/server/testing/staff";

import { GET as CSV } from "../../../app/api/admin/conversions.csv/route";
import { anonymiseReaderIds } from "../../privacy/erasure/steps-conversions";
import type { ErasureSubject } from "../../privacy/erasure/subject";
import { collectReaderIds } from "../../privacy/exports/collect-reader-ids";
import { oneStoryConversions, storyConversions } from "./conversion-load";
import { forgetConversionWrites, linkReader, recordWallHit } from "./conversion-record";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

beforeEach(() => forgetConversionWrites());

const hitsOf = (db: Db, accountId: number) =>
  db.conversionWallHit.findMany({ where: { accountId }, orderBy: [{ readerId: "asc" }, { id: "asc" }] });

describe("wall hits at the access check", () => {
  it("records one row per reader, story and day for denied checks, none for granted ones", async () => {
    const { db, account, key, story } = await setup();
    const paid = await story("subscription");
    const open = await story("public");
    expect(await ampAccess(paid.id, { key, readerId: "amp-reader-1" })).toMatchObject({ granted: false });
    forgetConversionWrites();
    expect(await ampAccess(paid.id, { key, readerId: "amp-reader-1" })).toMatchObject({ granted: false });
    expect((await send(WEB_ACCESS, paid.id, { key, readerId: "web-reader-1" })).status).toBe(200);
    expect((await send(WEB_ACCESS, paid.id, { key })).status).toBe(200); // no reader id: nobody to count
    await ampAccess(open.id, { key, readerId: "amp-reader-1" });
    const hits = await hitsOf(db, account.id);
    expect(hits.map((h) => [h.readerId, h.storyId, h.wall])).toEqual([
      ["amp-reader-1", paid.id, "paid"],
      ["web-reader-1", paid.id, "paid"],
    ]);
    expect(hits[0]!.firstAt.getTime()).toBe(hits[0]!.lastAt.getTime());
  });

  it("keeps one row under concurrent checks, and moves its last moment on after 30 minutes", async () => {
    const { db, account, story } = await setup();
    const paid = await story("subscription");
    const t = new Date("2026-11-10T08:00:00Z");
    const hit = (now: Date) =>
      recordWallHit(db, { accountId: account.id, storyId: paid.id, readerId: "r-1", wall: "paid", now });
    await Promise.all(
      Array.from({ length: 6 }, () => {
        forgetConversionWrites();
        return hit(t);
      }),
    );
    forgetConversionWrites();
    await hit(new Date(t.getTime() + 10 * 60_000)); // within 30 minutes: unchanged
    forgetConversionWrites();
    await hit(new Date(t.getTime() + 45 * 60_000));
    const rows = await hitsOf(db, account.id);
    expect(rows).toHaveLength(1);
    expect([rows[0]!.firstAt.toISOString(), rows[0]!.lastAt.toISOString()]).toEqual([
      "2026-11-10T08:00:00.000Z",
      "2026-11-10T08:45:00.000Z",
    ]);
  });

  it("links the reader id to the JWT's member on a check", async () => {
    const { db, account, key, story } = await setup();
    const paid = await story("subscription");
    const member = await findOrCreateJwtMember(db, {
      accountId: account.id,
      user: { id: "u-77", name: "Ada" } as never,
      now: new Date(),
      linkProviderClaim: true,
    });
    const jwt = await readerJwt({ id: "u-77", name: "Ada" });
    expect((await send(WEB_ACCESS, paid.id, { key, readerId: "dev-77", accesstype_jwt: jwt })).status).toBe(200);
    const links = await db.conversionReaderLink.findMany({ where: { accountId: account.id } });
    expect(links.map((l) => [l.readerId, l.memberId, l.via])).toEqual([["dev-77", member.id, "jwt"]]);
  });
});

async function setup() {
  return createAccessFixture(await getDb());
}

const T = new Date("2026-11-10T12:00:00Z");
const H = 3_600_000;
const before = (ms: number) => new Date(T.getTime() - ms);

/** A member created at `created`, with a subscription (trial or paid) created at `start` and its captured payment. */
async function converter(
  db: Db,
  accountId: number,
  args: { created: Date; start?: Date; trial?: boolean; cents?: number },
) {
  const member = await insertMember(db, accountId);
  await db.member.update({ where: { id: member.id }, data: { createdAt: args.created } });
  if (args.start) {
    const sub = await insertSubscription(db, { accountId, memberId: member.id, start: args.start });
    await db.subscription.update({
      where: { id: sub.id },
      data: { createdAt: args.start, trialEndsAt: args.trial ? new Date(args.start.getTime() + 7 * 24 * H) : null },
    });
    if (args.cents)
      await db.payment.create({
        data: {
          accountId,
          subscriptionId: sub.id,
          paymentType: "manual",
          amountCents: args.cents,
          currency: "EUR",
          status: "CAPTURED",
          createdAt: args.start,
        },
      });
  }
  return member;
}

describe("figures per story", () => {
  it("attributes over two devices, not after 25 hours; a story with no hits has none", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "conv", { owner: ["OWNER"] });
    const accountId = owner.account.id;
    const section = await db.section.create({
      data: { accountId, name: "news", displayName: "News", slug: "news" },
    });
    const [a, b, c] = [
      await insertStory(db, accountId, { access: "subscription", headline: "Alpha", sectionIds: [section.id] }),
      await insertStory(db, accountId, { access: "subscription", headline: "Beta" }),
      await insertStory(db, accountId, { access: "subscription", headline: "Gamma" }),
    ];
    const hit = (storyId: string, readerId: string, now: Date) =>
      recordWallHit(db, { accountId, storyId, readerId, wall: "paid", now });
    const link = (readerId: string, memberId: number) =>
      linkReader(db, { accountId, readerId, memberId, via: "checkout", now: T });

    // One member, two devices: the phone hit Alpha 3 hours before registering; the laptop 15
    // minutes before paying (the same visit).
    const m1 = await converter(db, accountId, { created: before(H), start: before(0.5 * H), cents: 1000 });
    await hit(a.id, "phone", before(3 * H));
    await hit(a.id, "laptop", before(0.75 * H));
    await link("phone", m1.id);
    await link("laptop", m1.id);
    // Hit Beta 25 hours before paying: not attributed.
    const m2 = await converter(db, accountId, { created: before(48 * H), start: T, cents: 700 });
    await hit(b.id, "late", before(25 * H));
    await link("late", m2.id);
    // A trial 1 hour after Beta's wall; an anonymous reader of Beta.
    const m3 = await converter(db, accountId, { created: before(72 * H), start: T, trial: true });
    await hit(b.id, "trier", before(H));
    await link("trier", m3.id);
    await hit(b.id, "anon", before(4 * H));

    const range = { from: "2026-11-10", to: "2026-11-10" };
    const report = await storyConversions(db, { accountId, input: { ...range, by: "story" } });
    expect(report.rows.map((r) => [r.label, r.readers, r.registered, r.trials, r.paid, r.revenue])).toEqual([
      ["Alpha", 1, 1, 0, 1, [{ currency: "EUR", cents: 1000 }]],
      ["Beta", 2, 0, 1, 0, []],
    ]);
    expect(report.totals).toMatchObject({ readers: 3, registered: 1, trials: 1, paid: 1 });
    expect(report.days).toEqual([{ day: "2026-11-10", readers: 3, registered: 1, trials: 1, paid: 1 }]);

    const bySection = await storyConversions(db, { accountId, input: { ...range, by: "section" } });
    expect(bySection.rows.map((r) => [r.label, r.readers, r.paid])).toEqual([
      ["News", 1, 1],
      ["No section", 2, 0],
    ]);

    const now = new Date("2026-11-11T00:00:00Z");
    expect(await oneStoryConversions(db, { accountId, storyId: a.id, range, now })).toMatchObject({
      readers: 1,
      registered: 1,
      paid: 1,
      sameVisit: 1,
      revenue: [{ currency: "EUR", cents: 1000 }],
    });
    expect(await oneStoryConversions(db, { accountId, storyId: c.id, range, now })).toMatchObject({
      readers: 0,
      registered: 0,
      trials: 0,
      paid: 0,
      revenue: [],
    });

    session.current = owner.session;
    const csv = await CSV(new Request(`http://localhost/api/admin/conversions.csv?from=2026-11-10&to=2026-11-10`), {
      params: Promise.resolve({}),
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    expect(lines[0]).toBe(
      "story_id,headline,readers_hit_wall,registered,trials_started,paid_started,same_visit,revenue_cents_EUR",
    );
    expect(lines[1]).toBe(`${a.id},Alpha,1,1,0,1,1,1000`);
    const bad = await CSV(new Request(`http://localhost/api/admin/conversions.csv?from=2026-11-10&to=2026-01-01`), {
      params: Promise.resolve({}),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "BAD_REQUEST" } });
  });
});

describe("the reader's rights", () => {
  it("exports the member's browser ids and walls; erasure unlinks them and keeps the counts under new ids", async () => {
    const { db, account, story } = await setup();
    const paid = await story("subscription");
    const [erased, other] = [await insertMember(db, account.id), await insertMember(db, account.id)];
    const now = new Date("2026-11-10T08:00:00Z");
    for (const readerId of ["own-device", "shared-device"])
      await recordWallHit(db, { accountId: account.id, storyId: paid.id, readerId, wall: "paid", now });
    await linkReader(db, { accountId: account.id, readerId: "own-device", memberId: erased.id, via: "signup", now });
    await linkReader(db, { accountId: account.id, readerId: "shared-device", memberId: erased.id, via: "jwt", now });
    await linkReader(db, { accountId: account.id, readerId: "shared-device", memberId: other.id, via: "login", now });

    const exported = await collectReaderIds(db, account.id, erased.id);
    expect(exported).toEqual([
      {
        reader_id: "own-device",
        linked_via: "signup",
        linked_at: now.toISOString(),
        walls_met: [{ day: "2026-11-10", story_id: paid.id, headline: paid.headline, wall: "paid" }],
      },
      expect.objectContaining({ reader_id: "shared-device", linked_via: "jwt" }),
    ]);

    const subject = { accountId: account.id, memberId: erased.id } as ErasureSubject;
    await withTransaction(db, (tx) => anonymiseReaderIds(tx, subject));
    await withTransaction(db, (tx) => anonymiseReaderIds(tx, subject)); // a resumed run changes nothing more
    expect(await collectReaderIds(db, account.id, erased.id)).toEqual([]);
    const ids = (await hitsOf(db, account.id)).map((h) => h.readerId);
    expect(ids).toHaveLength(2);
    expect(ids).toContain("shared-device");
    expect(ids.find((id) => id !== "shared-device")).toMatch(/^erased:[0-9a-f-]{36}$/);
    expect(await db.conversionReaderLink.count({ where: { accountId: account.id } })).toBe(1);
  });
});
