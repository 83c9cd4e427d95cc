/** The revenue reports count the account's days (accounts.time_zone), clock changes included. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { revenueReport, subscriptionsReport } from "@/server/subscriptions/reports/reports";
import { createTestStaff } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

const at = (iso: string) => new Date(iso);

async function staffIn(timeZone: string) {
  const db = await getDb();
  const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
  await db.account.update({ where: { id: revenue.account.id }, data: { timeZone } });
  return { db, revenue, accountId: revenue.account.id };
}

describe("revenue reports on the account's clocks", () => {
  it("puts a payment at 16:00 UTC on the next day in Asia/Tokyo, and a refund at 14:59 UTC on the same", async () => {
    const { db, revenue, accountId } = await staffIn("Asia/Tokyo");
    const paid = await db.payment.create({
      data: {
        accountId,
        paymentType: "manual",
        amountCents: 900,
        currency: "EUR",
        status: "REFUNDED",
        refundedCents: 900,
        createdAt: at("2026-03-01T16:00:00Z"),
      },
    });
    await db.paymentRefund.create({
      data: {
        accountId,
        paymentId: paid.id,
        amountCents: 900,
        status: "SUCCEEDED",
        createdAt: at("2026-03-02T14:59:00Z"),
      },
    });
    const report = await revenueReport(db, { accountId, range: { from: "2026-03-01", to: "2026-03-03" } });
    expect(report.days).toEqual([
      {
        day: "2026-03-02",
        currency: "EUR",
        captured_cents: 900,
        refunded_cents: 900,
        net_cents: 0,
        tax_cents: 0,
        refunded_tax_cents: 0,
        net_excluding_tax_cents: 0,
      },
    ]);
    // The same through tRPC: the range's days are the account's.
    expect((await revenue.caller.revenue.revenueReport({ from: "2026-03-01", to: "2026-03-01" })).days).toEqual([]);
  });

  it("counts new and churned on America/New_York's days across the 23-hour 8 March", async () => {
    const { db, accountId } = await staffIn("America/New_York");
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const ada = await insertTestSubscriber(db, accountId, "ada@example.com");
    const sub = (start: string, end: string | null) =>
      insertTestSubscription(db, {
        accountId,
        memberId: ada.id,
        planId: plan.id,
        start: at(start),
        end: end ? at(end) : null,
      });
    // 8 March runs from 05:00 UTC to 04:00 UTC on the 9th (clocks go forward at 02:00).
    await sub("2026-03-09T03:30:00Z", null); // 8 March, 23:30 EDT
    await sub("2026-03-09T04:00:00Z", "2026-03-10T03:59:00Z"); // 9 March 00:00 EDT, ends 9 March 23:59 EDT
    await sub("2026-03-08T04:59:00Z", null); // 7 March, 23:59 EST

    const report = await subscriptionsReport(db, {
      accountId,
      range: { from: "2026-03-07", to: "2026-03-10" },
      now: at("2026-06-01T00:00:00Z"),
    });
    expect(report.days).toEqual([
      { day: "2026-03-07", active: 1, new: 1, churned: 0 },
      { day: "2026-03-08", active: 2, new: 1, churned: 0 },
      { day: "2026-03-09", active: 2, new: 1, churned: 1 },
      { day: "2026-03-10", active: 2, new: 0, churned: 0 },
    ]);
  });
});
