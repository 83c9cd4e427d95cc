/**
 * The revenue reports (reports.ts) on the real database: known rows, exact numbers per UTC day;
 * the taxes of invoiced payments and of their refunds' credit notes split from revenue.
 */
import { describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { withTransaction } from "@/server/db/transaction";
import type { PaymentRefundStatus, PaymentStatus } from "@/server/generated/prisma/enums";
import { issueInvoiceForPayment } from "@/server/subscriptions/invoices/invoices";
import { refundPayment } from "@/server/subscriptions/invoices/refunds";
import { conversionReport, revenueReport, subscriptionsReport } from "@/server/subscriptions/reports/reports";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

const at = (iso: string) => new Date(iso);
/** The tax figures of revenue that carried no tax. */
const untaxed = (netCents: number) => ({ tax_cents: 0, refunded_tax_cents: 0, net_excluding_tax_cents: netCents });

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("revenue reports", () => {
  it("counts active, new and churned subscriptions per UTC day", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const other = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const ada = await insertTestSubscriber(db, accountId, "ada@example.com");
    const sub = (over: Parameters<typeof insertTestSubscription>[1] extends infer A ? Partial<A> : never) =>
      insertTestSubscription(db, { accountId, memberId: ada.id, planId: plan.id, ...over });

    // Active before the range, all through it.
    await sub({ start: at("2026-02-20T10:00:00Z"), end: null });
    // Starts 2 March 23:59 (a UTC day boundary case), ends 4 March 12:00.
    await sub({ start: at("2026-03-02T23:59:59Z"), end: at("2026-03-04T12:00:00Z") });
    // Starts 3 March, cancelled at period end (still counts), ends after the range.
    await sub({ start: at("2026-03-03T00:00:00Z"), end: at("2026-04-01T00:00:00Z"), status: "CANCELLED" });
    // Ended before the range: never counted.
    await sub({ start: at("2026-01-01T00:00:00Z"), end: at("2026-02-28T00:00:00Z") });
    // Pending, failed and deleted subscriptions never count.
    await sub({ start: at("2026-03-02T08:00:00Z"), status: "PENDING" });
    await sub({ start: at("2026-03-02T08:00:00Z"), status: "FAILED" });
    await sub({ start: at("2026-03-02T08:00:00Z"), deletedAt: at("2026-03-05T00:00:00Z") });
    // Another account's.
    const otherPlan = await insertTestPlan(db, await insertTestGroup(db, other.account.id));
    const bo = await insertTestSubscriber(db, other.account.id, "bo@example.com");
    await insertTestSubscription(db, {
      accountId: other.account.id,
      memberId: bo.id,
      planId: otherPlan.id,
      start: at("2026-03-02T08:00:00Z"),
    });

    const report = await subscriptionsReport(db, {
      accountId,
      range: { from: "2026-03-01", to: "2026-03-05" },
      now: at("2026-06-01T00:00:00Z"),
    });
    expect(report.days).toEqual([
      { day: "2026-03-01", active: 1, new: 0, churned: 0 },
      { day: "2026-03-02", active: 2, new: 1, churned: 0 },
      { day: "2026-03-03", active: 3, new: 1, churned: 0 },
      { day: "2026-03-04", active: 2, new: 0, churned: 1 },
      { day: "2026-03-05", active: 2, new: 0, churned: 0 },
    ]);
    expect(report.totals).toEqual({ new: 2, churned: 1, active_at_end: 2 });

    // "Now" inside the range: ends after now have not churned yet.
    const early = await subscriptionsReport(db, {
      accountId,
      range: { from: "2026-03-04", to: "2026-03-04" },
      now: at("2026-03-04T06:00:00Z"),
    });
    expect(early.days).toEqual([{ day: "2026-03-04", active: 3, new: 0, churned: 0 }]);

    // Through tRPC: the range is validated (max 366 days, to not before from, real days).
    expect(
      (await revenue.caller.revenue.subscriptionsReport({ from: "2026-03-02", to: "2026-03-02" })).days,
    ).toHaveLength(1);
    for (const bad of [
      { from: "2025-01-01", to: "2026-01-02" },
      { from: "2026-03-05", to: "2026-03-01" },
      { from: "2026-02-30", to: "2026-03-01" },
      { from: "03/01/2026", to: "2026-03-01" },
    ])
      expect(await trpcCodeOf(revenue.caller.revenue.subscriptionsReport(bad))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(revenue.caller.revenue.subscriptionsReport({ from: "2025-01-01", to: "2026-01-01" }))).toBe(
      "OK",
    );
  });

  it("sums captured payments and refunds per UTC day and currency, in cents", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const pay = (amountCents: number, currency: string, createdAt: string, status: PaymentStatus = "CAPTURED") =>
      db.payment.create({
        data: { accountId, paymentType: "manual", amountCents, currency, status, createdAt: at(createdAt) },
      });
    await pay(1_999, "USD", "2026-03-01T00:00:00Z");
    await pay(1_001, "USD", "2026-03-01T23:59:59.999Z");
    await pay(49_900, "INR", "2026-03-01T12:00:00Z");
    const refunded = await pay(500, "EUR", "2026-03-02T09:00:00Z");
    await db.payment.update({ where: { id: refunded.id }, data: { status: "REFUNDED", refundedCents: 500 } });
    const refund = (amountCents: number, status: PaymentRefundStatus) =>
      db.paymentRefund.create({
        data: { accountId, paymentId: refunded.id, amountCents, status, createdAt: at("2026-03-03T10:00:00Z") },
      });
    await refund(500, "SUCCEEDED");
    // A failed refund, pending and failed payments, and a payment outside the range do not count.
    await refund(100, "FAILED");
    await pay(7, "USD", "2026-03-01T10:00:00Z", "PENDING");
    await pay(7, "USD", "2026-03-01T10:00:00Z", "FAILED");
    await pay(9_999, "USD", "2026-03-04T00:00:00Z");

    const report = await revenueReport(db, { accountId, range: { from: "2026-03-01", to: "2026-03-03" } });
    expect(report.days).toEqual([
      {
        day: "2026-03-01",
        currency: "INR",
        captured_cents: 49_900,
        refunded_cents: 0,
        net_cents: 49_900,
        ...untaxed(49_900),
      },
      {
        day: "2026-03-01",
        currency: "USD",
        captured_cents: 3_000,
        refunded_cents: 0,
        net_cents: 3_000,
        ...untaxed(3_000),
      },
      { day: "2026-03-02", currency: "EUR", captured_cents: 500, refunded_cents: 0, net_cents: 500, ...untaxed(500) },
      { day: "2026-03-03", currency: "EUR", captured_cents: 0, refunded_cents: 500, net_cents: -500, ...untaxed(-500) },
    ]);
    expect(report.currencies).toEqual(["EUR", "INR", "USD"]);
    expect(report.totals).toEqual([
      { currency: "EUR", captured_cents: 500, refunded_cents: 500, net_cents: 0, ...untaxed(0) },
      { currency: "INR", captured_cents: 49_900, refunded_cents: 0, net_cents: 49_900, ...untaxed(49_900) },
      { currency: "USD", captured_cents: 3_000, refunded_cents: 0, net_cents: 3_000, ...untaxed(3_000) },
    ]);
  });

  it("splits the taxes of invoices and credit notes from revenue, per day and currency, in cents", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const actor = staffActor({ id: revenue.user.id, accountId, roles: ["REVENUE"] });
    const payer = await insertTestSubscriber(db, accountId, "taxed@example.com");
    const vat = [{ name: "VAT", rate_basis_points: 2000, inclusive: false }];
    const gst = [{ name: "GST", rate_basis_points: 1800, inclusive: true }];
    /** A captured payment of a subscription priced `priceCents` with `taxDetail`, invoiced as checkout does. */
    const taxedPayment = async (
      priceCents: number,
      currency: string,
      taxDetail: typeof vat,
      amountCents: number,
      createdAt: string,
    ) => {
      const plan = await insertTestPlan(db, await insertTestGroup(db, accountId), {
        priceCents,
        priceCurrency: currency,
      });
      const sub = await insertTestSubscription(db, { accountId, memberId: payer.id, planId: plan.id });
      await db.subscription.update({ where: { id: sub.id }, data: { taxDetail, paymentAmountCents: amountCents } });
      const payment = await db.payment.create({
        data: {
          accountId,
          subscriptionId: sub.id,
          paymentType: "manual",
          amountCents,
          currency,
          status: "CAPTURED",
          createdAt: at(createdAt),
        },
      });
      await withTransaction(db, (tx) => issueInvoiceForPayment(tx, payment.id, { now: at(createdAt) }));
      return payment;
    };
    // VAT 20% on top of €10.00: €12.00 paid, €2.00 of it tax; twice, on 1 and 2 March.
    await taxedPayment(1_000, "EUR", vat, 1_200, "2026-03-01T10:00:00Z");
    const eur = await taxedPayment(1_000, "EUR", vat, 1_200, "2026-03-02T10:00:00Z");
    // GST 18% inside ₹118.00: ₹18.00 of it tax.
    const inr = await taxedPayment(11_800, "INR", gst, 11_800, "2026-03-01T12:00:00Z");
    // A manual payment with no invoice carries no tax.
    await db.payment.create({
      data: {
        accountId,
        paymentType: "manual",
        amountCents: 500,
        currency: "USD",
        status: "CAPTURED",
        createdAt: at("2026-03-01T08:00:00Z"),
      },
    });
    // Half of the 2 March euro payment and half of the rupee one refunded on 3 March: credit notes
    // with €1.00 (200 × 600 / 1200) and ₹9.00 (1800 × 5900 / 11800) of tax.
    await refundPayment(db, { actor, input: { paymentId: eur.id, amountCents: 600 }, now: at("2026-03-03T09:00:00Z") });
    await refundPayment(db, {
      actor,
      input: { paymentId: inr.id, amountCents: 5_900 },
      now: at("2026-03-03T09:00:00Z"),
    });
    const notes = await db.creditNote.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(notes.map((n) => (n.taxLines as { amount_cents: number }[]).map((l) => l.amount_cents))).toEqual([
      [100],
      [900],
    ]);

    const report = await revenueReport(db, { accountId, range: { from: "2026-03-01", to: "2026-03-03" } });
    const row = (captured: number, refunded: number, tax: number, refundedTax: number) => ({
      captured_cents: captured,
      refunded_cents: refunded,
      net_cents: captured - refunded,
      tax_cents: tax,
      refunded_tax_cents: refundedTax,
      net_excluding_tax_cents: captured - refunded - tax + refundedTax,
    });
    expect(report.days).toEqual([
      { day: "2026-03-01", currency: "EUR", ...row(1_200, 0, 200, 0) },
      { day: "2026-03-01", currency: "INR", ...row(11_800, 0, 1_800, 0) },
      { day: "2026-03-01", currency: "USD", ...row(500, 0, 0, 0) },
      { day: "2026-03-02", currency: "EUR", ...row(1_200, 0, 200, 0) },
      { day: "2026-03-03", currency: "EUR", ...row(0, 600, 0, 100) },
      { day: "2026-03-03", currency: "INR", ...row(0, 5_900, 0, 900) },
    ]);
    expect(report.totals).toEqual([
      { currency: "EUR", ...row(2_400, 600, 400, 100) },
      { currency: "INR", ...row(11_800, 5_900, 1_800, 900) },
      { currency: "USD", ...row(500, 0, 0, 0) },
    ]);
    // The figures, written out: €18.00 net of which €3.00 tax; ₹59.00 net of which ₹9.00 tax.
    expect(report.totals.map((t) => [t.currency, t.net_cents, t.net_excluding_tax_cents])).toEqual([
      ["EUR", 1_800, 1_500],
      ["INR", 5_900, 5_000],
      ["USD", 500, 500],
    ]);
    // The same through tRPC.
    expect((await revenue.caller.revenue.revenueReport({ from: "2026-03-03", to: "2026-03-03" })).totals).toEqual([
      { currency: "EUR", ...row(0, 600, 0, 100) },
      { currency: "INR", ...row(0, 5_900, 0, 900) },
    ]);
  });

  it("counts readers who hit the paywall and those of them who subscribed after", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const range = { from: "2026-03-01", to: "2026-03-02" };
    expect(await conversionReport(db, { accountId, range })).toMatchObject({
      free_stories: null,
      totals: { hit_paywall: 0, converted: 0, rate: null },
    });
    await db.meterSettings.create({ data: { accountId, freeStories: 2, periodLength: 1, periodUnit: "MONTHS" } });
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const [ada, bo, cy] = [
      await insertTestSubscriber(db, accountId, "ada@example.com"),
      await insertTestSubscriber(db, accountId, "bo@example.com"),
      await insertTestSubscriber(db, accountId, "cy@example.com"),
    ];
    const period = at("2026-03-01T00:00:00Z");
    const view = (readerKey: string, storyId: string, createdAt: string, periodStart = period) =>
      db.meterView.create({ data: { accountId, readerKey, periodStart, storyId, createdAt: at(createdAt) } });
    // Ada hits the limit on 1 March (second read) and subscribes after: converted.
    await view(`m:${ada.id}`, "s1", "2026-03-01T08:00:00Z");
    await view(`m:${ada.id}`, "s2", "2026-03-01T09:00:00Z");
    await view(`m:${ada.id}`, "s3", "2026-03-01T10:00:00Z");
    await insertTestSubscription(db, {
      accountId,
      memberId: ada.id,
      planId: plan.id,
      createdAt: at("2026-03-01T11:00:00Z"),
    });
    // Bo hits it on 2 March but had subscribed before: not a conversion.
    await insertTestSubscription(db, {
      accountId,
      memberId: bo.id,
      planId: plan.id,
      createdAt: at("2026-02-01T00:00:00Z"),
    });
    await view(`m:${bo.id}`, "s1", "2026-03-02T08:00:00Z");
    await view(`m:${bo.id}`, "s2", "2026-03-02T09:00:00Z");
    // Cy reads only one story: no hit. An anonymous reader hits it on 2 March: a hit, never converted.
    await view(`m:${cy.id}`, "s1", "2026-03-02T08:00:00Z");
    await view("r:anon-1", "s1", "2026-03-02T00:00:00Z");
    await view("r:anon-1", "s2", "2026-03-02T00:30:00Z");
    // Hit in February (the previous period): outside the range.
    await view("r:anon-2", "s1", "2026-02-27T00:00:00Z", at("2026-02-01T00:00:00Z"));
    await view("r:anon-2", "s2", "2026-02-28T00:00:00Z", at("2026-02-01T00:00:00Z"));

    const report = await conversionReport(db, { accountId, range });
    expect(report.free_stories).toBe(2);
    expect(report.days).toEqual([
      { day: "2026-03-01", hit_paywall: 1, converted: 1 },
      { day: "2026-03-02", hit_paywall: 2, converted: 0 },
    ]);
    expect(report.totals).toEqual({ hit_paywall: 3, converted: 1, rate: 1 / 3 });
  });
});
