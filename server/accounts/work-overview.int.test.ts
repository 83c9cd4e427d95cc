/**
 * The Overview's figures for moderators and revenue staff (work-overview.ts; docs/dashboard.md
 * "Overview"): counted from the account's own rows, days on the account's calendar.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { insertSubscription } from "@/server/testing/access-fixtures";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { getModerationWork, getRevenueWork } from "./work-overview";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const other = await createTestPublisher(db);
  const page = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/w" } });
  const member = await db.member.create({
    data: { accountId: account.id, name: "Reader", email: `w-${account.id}@example.com`, passwordHash: "unused" },
  });
  return { db, account, other, page, member };
}

describe("the moderators' Overview", () => {
  it("counts the queue, its oldest comment, today's decisions on the account's calendar and reported comments", async () => {
    const { db, account, other, page, member } = await setup();
    const ana = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Ana" });
    // Noon in Auckland on 28 Nov 2026 is 23:00 UTC on the 27th: the account's day began at 11:00 UTC on the 27th.
    await db.account.update({ where: { id: account.id }, data: { timeZone: "Pacific/Auckland" } });
    const now = new Date("2026-11-27T23:00:00Z");
    const comment = (createdAt: Date, extra: { openReports?: number; isPublished?: boolean } = {}) =>
      db.comment.create({
        data: {
          accountId: account.id,
          pageId: page.id,
          authorId: member.id,
          body: { ops: [{ insert: "Held\n" }] },
          bodyDigest: `w-${Math.random()}`,
          isPublished: extra.isPublished ?? false,
          openReports: extra.openReports ?? 0,
          createdAt,
        },
      });
    const oldest = new Date(now.getTime() - 5 * HOUR);
    await comment(oldest);
    await comment(new Date(now.getTime() - HOUR));
    await comment(new Date(now.getTime() - 2 * HOUR), { isPublished: true, openReports: 2 });
    const decision = (createdAt: Date, accountId = account.id, action = "comment.approve") =>
      db.auditLog.create({ data: { accountId, actorId: ana.user.id, action, createdAt } });
    // Today on Auckland's clocks (after 11:00 UTC on the 27th): two decisions.
    await decision(new Date("2026-11-27T11:30:00Z"));
    await decision(new Date("2026-11-27T22:00:00Z"), account.id, "comment.reject");
    // Yesterday there (a UTC "today"), another account's, and no decision at all.
    await decision(new Date("2026-11-27T10:30:00Z"));
    await decision(new Date("2026-11-27T22:00:00Z"), other.id);
    await decision(new Date("2026-11-27T22:00:00Z"), account.id, "comment.edit");

    const work = await getModerationWork(db, { accountId: account.id, now });
    expect(work).toEqual({ pending: 2, oldestPendingAt: oldest, decidedToday: 2, reported: 1 });
  });
});

describe("the revenue staff's Overview", () => {
  it("counts MRR, subscriptions in grace, renewals due within 7 days and last 30 days' refunds", async () => {
    const { db, account, member } = await setup();
    const now = new Date();
    // Paying, renewing in 3 days: one renewal due.
    const renewing = await insertSubscription(db, { accountId: account.id, memberId: member.id });
    await db.subscription.update({
      where: { id: renewing.id },
      data: { recurring: true, nextPaymentDueDate: new Date(now.getTime() + 3 * DAY) },
    });
    // Renewing in 20 days: not due yet.
    const later = await insertSubscription(db, { accountId: account.id, memberId: member.id });
    await db.subscription.update({
      where: { id: later.id },
      data: { recurring: true, nextPaymentDueDate: new Date(now.getTime() + 20 * DAY) },
    });
    // In grace: its period ended, the charge failed, access kept for 3 more days.
    await insertSubscription(db, {
      accountId: account.id,
      memberId: member.id,
      start: new Date(now.getTime() - 31 * DAY),
      end: new Date(now.getTime() - DAY),
      graceEndsAt: new Date(now.getTime() + 3 * DAY),
    });
    const payment = await db.payment.create({
      data: { accountId: account.id, paymentType: "manual", amountCents: 500, currency: "usd", status: "CAPTURED" },
    });
    const refund = (amountCents: number, status: "SUCCEEDED" | "FAILED", createdAt = now) =>
      db.paymentRefund.create({
        data: { accountId: account.id, paymentId: payment.id, amountCents, status, createdAt },
      });
    await refund(120, "SUCCEEDED");
    await refund(80, "SUCCEEDED", new Date(now.getTime() - 10 * DAY));
    await refund(300, "FAILED");
    await refund(50, "SUCCEEDED", new Date(now.getTime() - 40 * DAY));

    const work = await getRevenueWork(db, { accountId: account.id, now });
    expect(work.inGrace).toBe(1);
    expect(work.renewalsDue).toBe(1);
    expect(work.refunds).toEqual({ count: 2, amounts: [{ currency: "USD", cents: 200 }] });
    // MRR as the revenue reports count it (metrics.ts): the two paid-up subscriptions, 5.00 USD a month each.
    expect(work.mrr).toEqual([{ currency: "USD", cents: 1000 }]);
  });
});
