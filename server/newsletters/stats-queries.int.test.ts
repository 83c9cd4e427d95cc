/**
 * The newsletter stats against a fixture of known outcomes, on PGlite and PostgreSQL: delivered,
 * bounced, failed and skipped mails, unique opens and clicks, unsubscribes, the subscriptions
 * started within 7 days of a click (paid, the window's bounds, gifts; not pending, deleted, free or
 * late ones), a newsletter's total over its sends of the range, and its subscribers by day on the
 * account's clocks (Europe/Berlin).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { insertSubscribedMembers, insertTestNewsletter, insertTestSend } from "@/server/testing/newsletters";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { getNewsletterStats, getSendStats } from "./stats-queries";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T = new Date("2026-11-02T07:00:00Z");
const at = (ms: number) => new Date(T.getTime() + ms);

async function fixture(db: Db) {
  const account = await createTestPublisher(db);
  await db.account.update({ where: { id: account.id }, data: { timeZone: "Europe/Berlin" } });
  const newsletter = await insertTestNewsletter(db, account.id);
  const members = await insertSubscribedMembers(db, newsletter, 7, { consentedAt: new Date("2026-10-15T09:00:00Z") });
  const { send } = await insertTestSend(db, newsletter, members, {
    sentAt: T,
    outcomes: [
      { openedAt: at(HOUR), clicks: [at(HOUR)] },
      { openedAt: at(HOUR), clicks: [at(HOUR)] },
      { openedAt: at(2 * HOUR), unsubscribedAt: at(3 * HOUR) },
      { status: "BOUNCED" },
      { status: "FAILED" },
      { clicks: [at(2 * HOUR), at(5 * HOUR)] },
      { status: "SKIPPED" },
    ],
  });
  const second = await insertTestSend(db, newsletter, members.slice(0, 2), {
    sentAt: new Date("2026-11-03T07:00:00Z"),
    // The first reader clicks this one too: their two subscriptions count for both sends, once in the total.
    outcomes: [
      { openedAt: new Date("2026-11-03T08:00:00Z"), clicks: [new Date("2026-11-03T08:00:00Z")] },
      { openedAt: new Date("2026-11-03T09:00:00Z") },
    ],
  });
  // Out of the range (before it): not listed, not counted.
  await insertTestSend(db, newsletter, members.slice(0, 1), { sentAt: new Date("2026-10-20T07:00:00Z") });

  const group = await insertTestGroup(db, account.id);
  const paid = await insertTestPlan(db, group, { priceCents: 900 });
  const free = await insertTestPlan(db, group, { title: "Free", priceCents: 0 });
  const sub = (memberId: number, createdAt: Date, over: Partial<Parameters<typeof insertTestSubscription>[1]> = {}) =>
    insertTestSubscription(db, {
      accountId: account.id,
      memberId,
      planId: paid.id,
      createdAt,
      start: createdAt,
      ...over,
    });
  const [m0, m1, , , , m5, m6] = members;
  // Counted: 2 days after the click; exactly 7 days after; a gift bought 3 days after.
  await sub(m0!.id, at(HOUR + 2 * DAY));
  await sub(m0!.id, at(HOUR + 7 * DAY));
  await sub(m6!.id, at(HOUR + 3 * DAY), { gifterMemberId: m1!.id });
  // Not counted: 8 days after; free; pending payment; deleted; at the click's very instant.
  await sub(m1!.id, at(HOUR + 8 * DAY));
  await sub(m1!.id, at(HOUR + DAY), { planId: free.id });
  await sub(m5!.id, at(2 * HOUR + DAY), { status: "PENDING" });
  await sub(m5!.id, at(2 * HOUR + 3 * DAY), { deletedAt: at(4 * DAY) });
  await sub(m5!.id, at(2 * HOUR));

  // Subscribers: m2 left at 23:30 UTC on the 2nd (00:30 on the 3rd in Berlin); one joined at
  // 23:30 UTC on the 1st (the 2nd in Berlin); one confirmed on the 3rd; one is still pending.
  await db.newsletterSubscription.update({
    where: { newsletterId_memberId: { newsletterId: newsletter.id, memberId: members[2]!.id } },
    data: { status: "UNSUBSCRIBED", unsubscribedAt: new Date("2026-11-02T23:30:00Z"), unsubscribeSource: "one_click" },
  });
  const [joined] = await insertSubscribedMembers(db, newsletter, 1, { consentedAt: new Date("2026-11-01T23:30:00Z") });
  const [confirmed] = await insertSubscribedMembers(db, newsletter, 1, {
    consentedAt: new Date("2026-10-30T10:00:00Z"),
  });
  await db.newsletterSubscription.update({
    where: { newsletterId_memberId: { newsletterId: newsletter.id, memberId: confirmed!.id } },
    data: { confirmedAt: new Date("2026-11-03T10:00:00Z") },
  });
  const [pending] = await insertSubscribedMembers(db, newsletter, 1, { consentedAt: new Date("2026-11-02T10:00:00Z") });
  await db.newsletterSubscription.update({
    where: { newsletterId_memberId: { newsletterId: newsletter.id, memberId: pending!.id } },
    data: { status: "PENDING" },
  });
  expect(joined).toBeDefined();
  return { account, newsletter, send, second: second.send };
}

describe("newsletter stats", () => {
  it("counts one send's outcomes and the subscriptions started within 7 days of a click", async () => {
    const db = await getDb();
    const { account, send } = await fixture(db);
    const result = await getSendStats(db, { accountId: account.id, sendId: send.id });
    expect(result.timeZone).toBe("Europe/Berlin");
    expect(result.stats).toEqual({
      recipients: 6,
      delivered: 4,
      bounced: 1,
      failed: 1,
      pending: 0,
      opened: 3,
      clicked: 3,
      unsubscribed: 1,
      subscriptionsStarted: 3,
      openRate: 0.75,
      clickRate: 0.75,
    });
  });

  it("adds a newsletter's sends of the range and counts its subscribers by day on the account's clocks", async () => {
    const db = await getDb();
    const { account, newsletter, send, second } = await fixture(db);
    const result = await getNewsletterStats(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      range: { from: "2026-11-01", to: "2026-11-04" },
    });
    expect(result.sends.map((s) => s.id)).toEqual([second.id, send.id]);
    expect(result.sends[0]).toMatchObject({
      recipients: 2,
      delivered: 2,
      opened: 2,
      clicked: 1,
      openRate: 1,
      subscriptionsStarted: 2,
    });
    expect(result.total).toEqual({
      recipients: 8,
      delivered: 6,
      bounced: 1,
      failed: 1,
      pending: 0,
      opened: 5,
      clicked: 4,
      unsubscribed: 1,
      subscriptionsStarted: 3,
      openRate: 5 / 6,
      clickRate: 4 / 6,
    });
    expect(result.subscribers).toEqual([
      { day: "2026-11-01", active: 7, started: 0, ended: 0 },
      { day: "2026-11-02", active: 8, started: 1, ended: 0 },
      { day: "2026-11-03", active: 8, started: 1, ended: 1 },
      { day: "2026-11-04", active: 8, started: 0, ended: 0 },
    ]);
  });

  it("answers NOT_FOUND for another account's newsletter or send", async () => {
    const db = await getDb();
    const { newsletter, send } = await fixture(db);
    const other = await createTestPublisher(db);
    await expect(getSendStats(db, { accountId: other.id, sendId: send.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      getNewsletterStats(db, {
        accountId: other.id,
        newsletterId: newsletter.id,
        range: { from: "2026-11-01", to: "2026-11-04" },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
