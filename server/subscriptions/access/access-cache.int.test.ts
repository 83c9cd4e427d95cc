/**
 * Over 500 lines: every test shares one harness (newsroom(): a counting client and its checks).
 *
 * What access checks keep in memory (./access-load.ts, ./access-roster.ts), and every change that
 * must drop it: one test per kind of change. A check answered from memory reads nothing from the
 * database (the tests count its queries); after each change the next check sees it. On PostgreSQL
 * the database's triggers reach this process through the cache listener, as they reach every
 * instance (a second connection writing stands for another instance); on PGlite the database
 * itself tells it.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";

import { staffActor } from "../../auth/actor";
import { ownWritesHeard } from "../../cache/process-cache";
import { getDatabase, getDb } from "../../db";
import type { Db } from "../../db/client";
import { setCollectionItems } from "../../publishing/editorial/collections/items";
import { createCollection } from "../../publishing/editorial/collections/write";
import { transitionStory } from "../../publishing/editorial/stories/moves";
import { createStory, updateStory } from "../../publishing/editorial/stories/write";
import { insertMember, insertPlanWithAssets, insertSubscription, setMeter } from "../../testing/access-fixtures";
import { createTestPublisher } from "../../testing/publishing-factories";
import { enableResponseCache } from "../../testing/response-cache";
import { insertEditor } from "../../testing/staff";
import { connectToSchema } from "../../testing/test-database";
import { decideAccess, recordPingback } from "./access";
import { KEPT_SQL } from "./access-load";
import { METER_ROSTER } from "./access-roster";
import { getMeterRules, meterPeriodStart, meterReaderKey } from "./meter";

const onPostgres = process.env.TEST_DB === "postgres";
const APP_URL = "http://localhost:3000";

enableResponseCache();

/** `db`, counting the SQL statements access checks send (they use $queryRaw). */
function counting(db: Db) {
  let queries = 0;
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "$queryRaw") return Reflect.get(target, property, receiver) as unknown;
      return (...args: Parameters<Db["$queryRaw"]>) => {
        queries++;
        return target.$queryRaw(...args);
      };
    },
  });
  return { db: counted, queries: () => queries };
}

async function newsroom() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const actor = await insertEditor(db, account.id);
  const ctx = { actor, appUrl: APP_URL };
  /** A story published through the workflow, with `access`. */
  const publish = async (access: "subscription" | "public") => {
    const { story } = await createStory(db, { ...ctx, now: new Date(), input: { headline: `Story ${access}` } });
    let version = 1;
    await updateStory(db, { ...ctx, now: new Date(), input: { id: story.id, version: version++, access } });
    for (const action of ["submit", "approve", "publish"] as const)
      await transitionStory(db, { ...ctx, now: new Date(), input: { id: story.id, version: version++, action } });
    return { id: story.id, version };
  };
  const counter = counting(db);
  /** The member's check of `storyId` (no meter), through the counting client. */
  const check = (
    storyId: string,
    memberId: number | null,
    reader: { jwtUserId?: string; readerId?: string } = {},
    now = new Date(),
  ) =>
    decideAccess(counter.db, {
      accountId: account.id,
      storyId,
      reader: { memberId, jwtUserId: reader.jwtUserId ?? null, readerId: reader.readerId ?? null },
      disableMeter: memberId !== null || Boolean(reader.jwtUserId),
      now,
      meter: "check",
    });
  /** The check is answered from memory now: a second one sends no statement. */
  const expectKept = async (storyId: string, memberId: number | null, reader = {}) => {
    // On PostgreSQL the notice of a write just made arrives through the listener a moment later
    // and clears what a check kept meanwhile (as it should): wait until the checks settle.
    let first: Awaited<ReturnType<typeof check>> | undefined;
    await expect
      .poll(
        async () => {
          first = await check(storyId, memberId, reader);
          const before = counter.queries();
          expect(await check(storyId, memberId, reader)).toEqual(first);
          return counter.queries() - before;
        },
        { timeout: 5_000, message: "answered from memory" },
      )
      .toBe(0);
    return first!;
  };
  /** The next check sees a change: at once on PGlite, once the listener hears it on PostgreSQL. */
  const eventually = async (storyId: string, memberId: number | null, granted: boolean, reader = {}) =>
    expect.poll(async () => (await check(storyId, memberId, reader)).granted, { timeout: 5_000 }).toBe(granted);
  /** A member with a subscription to a plan granting `assets` (the whole site unless told), and the subscription's fields. */
  const subscriber = async (
    subscription: Partial<Parameters<typeof insertSubscription>[1]> = {},
    assets: Parameters<typeof insertPlanWithAssets>[2] = { groupAssets: [{ type: "SITE" }] },
  ) => {
    const member = await insertMember(db, account.id);
    const plan = await insertPlanWithAssets(db, account.id, assets);
    const sub = await insertSubscription(db, {
      accountId: account.id,
      memberId: member.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
      ...subscription,
    });
    return { member, plan, sub };
  };
  /** An anonymous reader's pingback of `storyId` (counts a metered read). */
  const pingback = (storyId: string, readerId: string) =>
    recordPingback(db, { accountId: account.id, storyId, user: null, readerId, disableMeter: false, now: new Date() });
  return {
    db,
    account,
    actor: staffActor(actor),
    pingback,
    ctx,
    publish,
    check,
    expectKept,
    eventually,
    subscriber,
    queries: counter.queries,
  };
}

describe("access checks kept in memory", () => {
  it("a story's access changed, or the story retracted, drops its kept settings (its purge key)", async () => {
    const { db, account, ctx, publish, expectKept, check } = await newsroom();
    const story = await publish("subscription");
    const member = await insertMember(db, account.id);
    expect((await expectKept(story.id, member.id)).granted).toBe(false);
    // Written behind the services' back, nothing announces it: memory still answers.
    await db.story.update({ where: { id: story.id }, data: { accessLevelValue: 3 } });
    expect((await check(story.id, member.id)).granted).toBe(false);

    await updateStory(db, {
      ...ctx,
      now: new Date(),
      input: { id: story.id, version: story.version, access: "public" },
    });
    expect(await expectKept(story.id, member.id)).toMatchObject({ granted: true, grantReason: "FREE" });
    await transitionStory(db, {
      ...ctx,
      now: new Date(),
      input: { id: story.id, version: story.version + 1, action: "retract" },
    });
    await expect(check(story.id, member.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a collection's items changed drops the kept collections of its stories (pay per collection)", async () => {
    const { db, account, actor, publish, expectKept, check } = await newsroom();
    const story = await publish("subscription");
    const { collection } = await createCollection(db, { actor, input: { name: "Budget" }, now: new Date() });
    const member = await insertMember(db, account.id);
    await insertSubscription(db, {
      accountId: account.id,
      memberId: member.id,
      type: "DYNAMIC_ASSET",
      dynamicAssets: [{ id: collection.id, type: "collection" }],
    });
    await expectKept(story.id, member.id);
    await setCollectionItems(db, {
      actor,
      input: { id: collection.id, items: [{ storyId: story.id }] },
      now: new Date(),
    });
    expect(await check(story.id, member.id)).toMatchObject({ granted: true, grantReason: "ASSET" });
  });

  it("a subscription created, cancelled and ended, deleted: every write to it drops the readers' kept subscriptions", async () => {
    const { db, account, publish, expectKept, eventually } = await newsroom();
    const story = await publish("subscription");
    const member = await insertMember(db, account.id);
    const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    expect((await expectKept(story.id, member.id)).granted).toBe(false);

    const sub = await insertSubscription(db, {
      accountId: account.id,
      memberId: member.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
    });
    await eventually(story.id, member.id, true);
    await expectKept(story.id, member.id);
    await db.subscription.update({
      where: { id: sub.id },
      data: { status: "CANCELLED", endTimestamp: new Date(Date.now() - 1000) },
    });
    await eventually(story.id, member.id, false);
    await db.subscription.update({ where: { id: sub.id }, data: { endTimestamp: null } });
    await eventually(story.id, member.id, true);
    await expectKept(story.id, member.id);
    await db.subscription.update({ where: { id: sub.id }, data: { deletedAt: new Date() } });
    await eventually(story.id, member.id, false);
  });

  it("time passing ends a kept subscription's access with no event (its window is kept, not its verdict)", async () => {
    const { publish, expectKept, check, subscriber } = await newsroom();
    const story = await publish("subscription");
    // Far enough ahead that the checks before it end first, even on a loaded CI machine.
    const end = new Date(Date.now() + 3_000);
    const { member } = await subscriber({ end });
    await expect.poll(async () => (await check(story.id, member.id)).granted, { timeout: 2_500 }).toBe(true);
    await expectKept(story.id, member.id);
    expect(Date.now(), "checked before the end").toBeLessThan(end.getTime());
    await new Promise((resolve) => setTimeout(resolve, end.getTime() - Date.now() + 200));
    expect((await check(story.id, member.id)).granted).toBe(false);
  });

  it("a member added to or removed from a group_access subscription", async () => {
    const { db, account, publish, expectKept, eventually, subscriber } = await newsroom();
    const story = await publish("subscription");
    const { sub } = await subscriber(
      { type: "GROUP_ACCESS" },
      { type: "GROUP_ACCESS", groupAssets: [{ type: "SITE" }] },
    );
    const member = await insertMember(db, account.id);
    await eventually(story.id, member.id, false);
    await expectKept(story.id, member.id);
    await db.subscriptionMember.create({ data: { subscriptionId: sub.id, memberId: member.id } });
    await eventually(story.id, member.id, true);
    await expectKept(story.id, member.id);
    await db.subscriptionMember.deleteMany({ where: { subscriptionId: sub.id } });
    await eventually(story.id, member.id, false);
  });

  it("the assets a plan grants changed", async () => {
    const { db, account, publish, expectKept, eventually, subscriber } = await newsroom();
    const story = await publish("subscription");
    const { member } = await subscriber({}, { planAssets: [{ type: "STATIC" }] });
    await eventually(story.id, member.id, false);
    await expectKept(story.id, member.id);
    const [asset] = await db.subscriptionAsset.findMany({ where: { accountId: account.id, type: "STATIC" } });
    await db.subscriptionAsset.update({ where: { id: asset!.id }, data: { type: "SITE" } });
    await eventually(story.id, member.id, true);
  });

  it("a publisher-JWT reader linked to a member with a subscription (a new identity)", async () => {
    const { db, account, publish, expectKept, eventually, subscriber } = await newsroom();
    const story = await publish("subscription");
    const { member } = await subscriber();
    const jwt = { jwtUserId: "jwt-reader-1" };
    await eventually(story.id, null, false, jwt);
    await expectKept(story.id, null, jwt);
    await db.memberIdentity.create({
      data: { accountId: account.id, memberId: member.id, provider: "publisher", externalId: "jwt-reader-1" },
    });
    await eventually(story.id, null, true, jwt);
  });

  it("a metered read counted drops that reader's kept meter, and only theirs", async () => {
    const { db, account, publish, check, pingback } = await newsroom();
    await setMeter(db, account.id, { freeStories: 2 });
    const [a, b] = [await publish("subscription"), await publish("subscription")];
    const anon = { readerId: "amp-reader-1" };
    const other = { readerId: "amp-reader-2" };
    expect((await check(a.id, null, anon)).data.numberRemaining).toBe(1);
    expect((await check(a.id, null, other)).data.numberRemaining).toBe(1);
    await pingback(a.id, "amp-reader-1");
    expect(await check(a.id, null, anon)).toMatchObject({ granted: true, data: { numberRemaining: 1 } });
    expect(await check(b.id, null, anon)).toMatchObject({ granted: true, data: { numberRemaining: 0, isLast: true } });
    await pingback(b.id, "amp-reader-1");
    expect(await check(a.id, null, { readerId: "amp-reader-3" })).toMatchObject({ data: { numberRemaining: 1 } });
    const third = await publish("subscription");
    expect(await check(third.id, null, anon)).toMatchObject({ granted: false });
  });

  it("a read counted here keeps the reader's new meter here; a count by another instance drops it", async () => {
    const { db, account, publish, check, pingback, queries } = await newsroom();
    await setMeter(db, account.id, { freeStories: 3 });
    const [a, b, c] = [await publish("subscription"), await publish("subscription"), await publish("subscription")];
    const reader = { readerId: "amp-reader-9" };
    for (const story of [a, b, c]) await check(story.id, null, reader); // every story's settings kept
    expect(await pingback(a.id, reader.readerId)).toMatchObject({ why: "meter:counted" });
    // The next page's check: answered from the meter the count kept, without a statement.
    const before = queries();
    expect(await check(b.id, null, reader)).toMatchObject({ granted: true, data: { numberRemaining: 1 } });
    expect(await check(a.id, null, reader)).toMatchObject({ data: { numberRemaining: 2 } }); // counted: free again
    expect(queries() - before).toBe(0);
    // A pingback repeated counts nothing (told apart from an exhausted meter by the count's statement).
    expect(await pingback(a.id, reader.readerId)).toMatchObject({ why: "meter:already_counted" });
    // Another instance counts a read of b for this reader: the database announces the row, which drops the meter kept here.
    const periodStart = (
      await db.meterView.findFirstOrThrow({
        where: { accountId: account.id, storyId: a.id },
        select: { periodStart: true },
      })
    ).periodStart;
    const readerKey = meterReaderKey({ memberId: null, loggedIn: false, readerId: reader.readerId })!;
    await db.meterView.create({
      data: { accountId: account.id, readerKey, periodStart, storyId: b.id, createdAt: new Date() },
    });
    await expect
      .poll(async () => (await check(c.id, null, reader)).data, { timeout: 5_000 })
      .toMatchObject({ numberRemaining: 0, isLast: true });
    expect(await check(b.id, null, reader)).toMatchObject({ data: { numberRemaining: 1 } });
  });

  it("a new reader's first check of a story not checked yet reads the story and the meter in one statement", async () => {
    const { db, account, publish, check, expectKept, queries } = await newsroom();
    await setMeter(db, account.id, { freeStories: 3 });
    const story = await publish("subscription");
    const first = queries();
    expect(await check(story.id, null, { readerId: "new-reader-1" })).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 2 },
    });
    // The story and the meter in one statement. Beside it, once each, statements of their own (so
    // that PostgreSQL reuses the miss statement's plan): the account's first miss reads ahead its
    // stories, and its first meter miss reads the period's roster.
    expect(queries() - first).toBe(3);
    await expectKept(story.id, null, { readerId: "new-reader-1" });
    // The story kept, another new reader: the roster tells its meter (none), with no statement.
    const second = queries();
    expect((await check(story.id, null, { readerId: "new-reader-2" })).data.numberRemaining).toBe(2);
    expect(queries() - second).toBe(0);
    await expectKept(story.id, null, { readerId: "new-reader-2" });
    // An unknown story is 404, and nothing of it is kept.
    const unknown = "3f0c5b9e-1111-4222-8333-944455556666";
    await expect(check(unknown, null, { readerId: "new-reader-2" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const third = queries();
    await expect(check(unknown, null, { readerId: "new-reader-2" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(queries() - third).toBe(1);
  });

  it("checks that miss at the same time share one statement, each answered from its own story and meter", async () => {
    const { db, account, publish, check, queries, pingback } = await newsroom();
    await setMeter(db, account.id, { freeStories: 2 });
    // Meter histories: "busy" has read one story this period, "done" two (all it gets).
    const [c, d] = [await publish("subscription"), await publish("subscription")];
    await pingback(c.id, "busy");
    await pingback(c.id, "done");
    await pingback(d.id, "done");
    // Stories published since the pingbacks' read-ahead: not kept yet.
    const [a, b] = [await publish("subscription"), await publish("public")];
    const before = queries();
    const answers = await Promise.all([
      check(a.id, null, { readerId: "fresh" }),
      check(b.id, null, { readerId: "busy" }),
      check(a.id, null, { readerId: "busy" }),
      check(a.id, null, { readerId: "done" }),
      check(c.id, null, { readerId: "done" }),
    ]);
    expect(queries() - before).toBe(1);
    expect(answers.map(({ granted, grantReason, data }) => [granted, grantReason, data])).toEqual([
      [true, "METERING", { numberRemaining: 1, isLoggedIn: false, isLast: false, wall: null }],
      [true, "FREE", { numberRemaining: 1, isLoggedIn: false, isLast: false, wall: null }],
      [true, "METERING", { numberRemaining: 0, isLoggedIn: false, isLast: true, wall: null }],
      [false, null, { numberRemaining: 0, isLoggedIn: false, isLast: false, wall: "paid" }],
      [true, "METERING", { numberRemaining: 0, isLoggedIn: false, isLast: false, wall: null }],
    ]);
    // All of it was kept: the same checks again read nothing.
    const again = queries();
    await Promise.all([check(a.id, null, { readerId: "fresh" }), check(b.id, null, { readerId: "busy" })]);
    expect(queries() - again).toBe(0);
  });

  it("signed-in readers checking at once share one statement for their subscriptions, each answered from its own", async () => {
    const { db, account, publish, check, queries, subscriber, expectKept } = await newsroom();
    const story = await publish("subscription");
    await check(story.id, null, { readerId: "warm-up" }); // the story's settings kept
    const { member: paying } = await subscriber();
    const { member: linked } = await subscriber();
    await db.memberIdentity.create({
      data: { accountId: account.id, memberId: linked.id, provider: "publisher", externalId: "jwt-linked" },
    });
    const lapsed = await insertMember(db, account.id);
    const before = queries();
    const answers = await Promise.all([
      check(story.id, paying.id),
      check(story.id, lapsed.id),
      check(story.id, null, { jwtUserId: "jwt-linked" }),
      check(story.id, null, { jwtUserId: "jwt-never-seen" }),
      check(story.id, paying.id),
    ]);
    expect(queries() - before).toBe(1);
    expect(answers.map(({ granted, why }) => [granted, why])).toEqual([
      [true, expect.stringMatching(/^subscription:/)],
      [false, "hard_paywall"],
      [true, expect.stringMatching(/^subscription:/)],
      [false, "hard_paywall"],
      [true, expect.stringMatching(/^subscription:/)],
    ]);
    // Each state was kept under its own reader.
    await expectKept(story.id, lapsed.id);
    await expectKept(story.id, null, { jwtUserId: "jwt-linked" });
    expect((await check(story.id, null, { jwtUserId: "jwt-linked" })).granted).toBe(true);
  });

  it("the first miss reads ahead the account's other stories that are not public; a change still drops each", async () => {
    const { db, publish, check, expectKept, subscriber, queries, ctx } = await newsroom();
    const { member } = await subscriber();
    const [a, b, c] = [await publish("subscription"), await publish("subscription"), await publish("subscription")];
    const open = await publish("public");
    await expectKept(a.id, member.id);
    // The other subscription stories were read with the first: their first checks read nothing.
    const before = queries();
    expect((await check(b.id, member.id)).grantReason).toBe("SUBSCRIBER");
    expect((await check(c.id, member.id)).grantReason).toBe("SUBSCRIBER");
    expect(queries() - before).toBe(0);
    // A public story is not read ahead: its first check reads it.
    const publicBefore = queries();
    expect((await check(open.id, member.id)).grantReason).toBe("FREE");
    expect(queries() - publicBefore).toBe(1);
    // A change of a story read ahead drops it like any kept story: retracted, it is not found.
    await transitionStory(db, { ...ctx, now: new Date(), input: { id: b.id, version: b.version, action: "retract" } });
    await expect
      .poll(
        async () =>
          check(b.id, member.id).then(
            () => "found",
            (e: { code?: string }) => e.code,
          ),
        { timeout: 5_000 },
      )
      .toBe("NOT_FOUND");
  });

  it("the account's first meter miss reads the period's meters at once: readers with a history and new readers read nothing more", async () => {
    const { db, account, publish, check, queries, pingback } = await newsroom();
    await setMeter(db, account.id, { freeStories: 3 });
    const [a, b, c] = [await publish("subscription"), await publish("subscription"), await publish("subscription")];
    // Histories written as another instance wrote them before this one checked anything.
    const { addViews, countedElsewhere } = await meterWriter(db, account.id);
    await addViews("one", [a.id]);
    await addViews("two", [a.id, b.id]);

    const first = queries();
    expect((await check(a.id, null, { readerId: "one" })).data).toMatchObject({ numberRemaining: 2 });
    expect(queries() - first).toBe(3); // the miss, the stories' read-ahead, the period's roster
    const fromRoster = queries();
    expect((await check(b.id, null, { readerId: "two" })).data).toMatchObject({ numberRemaining: 1 });
    expect((await check(c.id, null, { readerId: "two" })).data).toMatchObject({ numberRemaining: 0, isLast: true });
    expect((await check(c.id, null, { readerId: "newcomer" })).data).toMatchObject({ numberRemaining: 2 });
    expect(queries() - fromRoster).toBe(0);

    // A count here: the reader's meter as the count read it, kept; nothing read.
    expect(await pingback(c.id, "one")).toMatchObject({ why: "meter:counted" });
    const afterCount = queries();
    expect((await check(b.id, null, { readerId: "one" })).data).toMatchObject({ numberRemaining: 0, isLast: true });
    expect(queries() - afterCount).toBe(0);

    // A count by another instance: this reader is no longer answered by the roster (read again,
    // once), the others still are.
    await countedElsewhere("two", c.id);
    await expect
      .poll(async () => (await check(a.id, null, { readerId: "two" })).data, { timeout: 5_000 })
      .toMatchObject({ numberRemaining: 0, isLast: false });
    expect((await check(b.id, null, { readerId: "two" })).granted).toBe(true);
    const others = queries();
    expect((await check(a.id, null, { readerId: "newcomer-2" })).data).toMatchObject({ numberRemaining: 2 });
    expect((await check(a.id, null, { readerId: "two" })).data).toMatchObject({ numberRemaining: 0 });
    expect(queries() - others).toBe(0);

    // Every response of the account purged: the roster goes with them, and is read again.
    await db.$executeRaw`SELECT masthead_announce(NULL, ${account.id}, NULL)`;
    await expect.poll(async () => (await check(a.id, null, { readerId: "newcomer-3" })).granted).toBe(true);
    const again = queries();
    expect((await check(a.id, null, { readerId: "newcomer-4" })).data).toMatchObject({ numberRemaining: 2 });
    expect((await check(a.id, null, { readerId: "one" })).data).toMatchObject({ numberRemaining: 1 });
    expect(queries() - again).toBe(0);
  });

  it("a new period's checks read that period's roster, never the last one's", async () => {
    const { db, account, publish, check, queries } = await newsroom();
    await setMeter(db, account.id, { freeStories: 2 });
    const a = await publish("subscription");
    const { addViews } = await meterWriter(db, account.id);
    await addViews("reader", [a.id]);
    expect((await check(a.id, null, { readerId: "reader" })).data).toMatchObject({ numberRemaining: 1 });
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
    const before = queries();
    expect((await check(a.id, null, { readerId: "reader" }, nextMonth)).data).toMatchObject({ numberRemaining: 1 });
    expect(queries() - before).toBe(2); // the meter and the new period's roster (the story is kept)
    expect((await check(a.id, null, { readerId: "reader" }, nextMonth)).data).toMatchObject({ numberRemaining: 1 });
    // Back in this period: the reader's meter is still kept; a new reader's miss reads this period's
    // roster again (one roster per account), and the next new reader is answered by it.
    expect((await check(a.id, null, { readerId: "reader" })).data).toMatchObject({ numberRemaining: 1 });
    const back = queries();
    expect((await check(a.id, null, { readerId: "reader-2" })).data).toMatchObject({ numberRemaining: 1 });
    expect(queries() - back).toBe(2);
    const backAgain = queries();
    expect((await check(a.id, null, { readerId: "reader-3" })).data).toMatchObject({ numberRemaining: 1 });
    expect(queries() - backAgain).toBe(0);
  });

  it("an account with more readers in the period than a roster holds reads each reader's meter", async () => {
    const { db, account, publish, check, queries } = await newsroom();
    await setMeter(db, account.id, { freeStories: 2 });
    const a = await publish("subscription");
    const { addViews } = await meterWriter(db, account.id);
    await addViews("first", [a.id]);
    await addViews("second", [a.id]);
    const limit = METER_ROSTER.maxReaders;
    METER_ROSTER.maxReaders = 1;
    try {
      const first = queries();
      expect((await check(a.id, null, { readerId: "first" })).data).toMatchObject({ numberRemaining: 1 });
      expect(queries() - first).toBe(3);
      // No roster: each new reader's meter is read (and not the roster again), then kept.
      for (const readerId of ["second", "third"]) {
        const before = queries();
        expect((await check(a.id, null, { readerId })).data).toMatchObject({ numberRemaining: 1 });
        expect(queries() - before).toBe(1);
      }
      const kept = queries();
      expect((await check(a.id, null, { readerId: "second" })).data).toMatchObject({ numberRemaining: 1 });
      expect(queries() - kept).toBe(0);
    } finally {
      METER_ROSTER.maxReaders = limit;
    }
  });

  it.runIf(onPostgres)(
    "another instance's write reaches this one through the listener; its rollback does not",
    async () => {
      const { publish, expectKept, eventually, subscriber } = await newsroom();
      const story = await publish("subscription");
      const { member, sub } = await subscriber();
      await eventually(story.id, member.id, true);
      await expectKept(story.id, member.id);
      const other = await otherConnection();
      try {
        const end = "UPDATE subscriptions SET deleted_at = now() WHERE id = $1";
        await other.query("BEGIN");
        await other.query(end, [sub.id]);
        await other.query("ROLLBACK");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await expectKept(story.id, member.id)).granted).toBe(true);
        await other.query(end, [sub.id]);
        await eventually(story.id, member.id, false);
      } finally {
        await other.end();
      }
    },
  );

  it.runIf(onPostgres)(
    "PostgreSQL plans the miss statement once and reuses the plan (not planned afresh on every miss)",
    async () => {
      const { account, publish } = await newsroom();
      const story = await publish("subscription");
      const client = await otherConnection();
      try {
        // As the app sends it: a named statement (../../db/adapter.ts), each miss with its own values.
        for (let n = 0; n < 12; n++) {
          const meters = [{ k: `r:plan-reader-${n}`, p: "2026-11-01T00:00:00.000Z" }];
          await client.query({
            name: "kept-plan-test",
            text: KEPT_SQL,
            values: [account.id, JSON.stringify(n % 2 ? [story.id] : []), JSON.stringify(meters)],
          });
        }
        const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
          "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'kept-plan-test'",
        );
        // PostgreSQL plans the first five calls for their values, then keeps its reusable plan
        // unless that looks dearer (as it did while the statement had an optional read-ahead).
        expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(6);
        expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(6);
      } finally {
        await client.end();
      }
    },
  );
});

/**
 * Meter rows of the account's current period written as another instance writes them (the database
 * announces each to every instance): `addViews` before this process checks anything,
 * `countedElsewhere` once it keeps the reader's meter.
 */
async function meterWriter(db: Db, accountId: number) {
  const rules = (await getMeterRules(db, accountId))!;
  const periodStart = meterPeriodStart(new Date(), rules.periodLength, rules.periodUnit);
  const readerKey = (readerId: string) => meterReaderKey({ memberId: null, loggedIn: false, readerId })!;
  const addViews = async (readerId: string, storyIds: string[]) => {
    for (const storyId of storyIds)
      await db.meterView.create({
        data: { accountId, readerKey: readerKey(readerId), periodStart, storyId, createdAt: new Date() },
      });
    // Heard here, as another instance's commits are by the time a later request comes.
    await ownWritesHeard(db);
  };
  const countedElsewhere = (readerId: string, storyId: string) => addViews(readerId, [storyId]);
  return { addViews, countedElsewhere };
}

/** A connection of its own to the test database, on the tests' schema (as another instance's would be). */
async function otherConnection(): Promise<pg.Client> {
  const database = await getDatabase();
  return connectToSchema(database.config.kind === "postgresql" ? database.config.schema : "public");
}
