/**
 * Refunds by revenue staff (refunds.ts, tRPC revenue.refund) on the real database: partial and
 * full, never more than captured minus refunded (also for parallel requests), REFUNDED once
 * nothing is left, audited; Razorpay through its stand-in (server/testing/razorpay-fixture.ts).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { razorpayAdapter } from "@/server/subscriptions/payments/razorpay";
import { pendingRazorpayCheckout, razorpayStandIn } from "@/server/testing/gateway-checkout";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

const razorpayAccount = razorpayStandIn();

/** A captured manual payment of `amountCents` on a subscription of a new subscriber. */
async function capturedPayment(db: Db, accountId: number, amountCents = 10_000, currency = "USD") {
  const group = await insertTestGroup(db, accountId);
  const plan = await insertTestPlan(db, group, { priceCents: amountCents });
  const member = await insertTestSubscriber(db, accountId);
  const subscription = await insertTestSubscription(db, { accountId, memberId: member.id, planId: plan.id });
  return db.payment.create({
    data: {
      accountId,
      subscriptionId: subscription.id,
      paymentType: "manual",
      amountCents,
      currency,
      status: "CAPTURED",
    },
  });
}

const refundsOf = (db: Db, paymentId: number) =>
  db.paymentRefund.findMany({ where: { paymentId }, orderBy: { id: "asc" } });

describe("refunds", () => {
  it("refunds part, then the rest, refuses more than is left, and audits each", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const payment = await capturedPayment(db, accountId);

    const first = await revenue.caller.revenue.refund({ paymentId: payment.id, amountCents: 2_550, reason: "late" });
    expect(first.refund).toMatchObject({ amount_cents: 2_550, currency: "USD", status: "succeeded" });
    expect(first.payment).toEqual({ id: payment.id, amount_cents: 10_000, refunded_cents: 2_550, status: "captured" });

    expect(await trpcCodeOf(revenue.caller.revenue.refund({ paymentId: payment.id, amountCents: 7_451 }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    const rest = await revenue.caller.revenue.refund({ paymentId: payment.id });
    expect(rest.refund.amount_cents).toBe(7_450);
    expect(rest.payment).toMatchObject({ refunded_cents: 10_000, status: "refunded" });
    expect(await trpcCodeOf(revenue.caller.revenue.refund({ paymentId: payment.id, amountCents: 1 }))).toBe("CONFLICT");

    const audit = await db.auditLog.findMany({
      where: { accountId, action: "payment.refund" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(
      audit.map((a) => [a.actorId, a.targetType, a.targetId, (a.metadata as { amount_cents: number }).amount_cents]),
    ).toEqual([
      [revenue.user.id, "payment", String(payment.id), 2_550],
      [revenue.user.id, "payment", String(payment.id), 7_450],
    ]);
    expect((audit[1]!.metadata as { full: boolean }).full).toBe(true);
    // The audit log page (owners) lists them.
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: accountId });
    const page = await owner.caller.auditLog.list({ action: "payment.refund" });
    expect(page.items.map((e) => e.targetId)).toEqual([String(payment.id), String(payment.id)]);
  });

  it("never passes the captured amount under parallel refunds", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;

    // Two partial refunds that fit only one at a time.
    const a = await capturedPayment(db, accountId, 10_000);
    const partial = await Promise.all([
      trpcCodeOf(revenue.caller.revenue.refund({ paymentId: a.id, amountCents: 6_000 })),
      trpcCodeOf(revenue.caller.revenue.refund({ paymentId: a.id, amountCents: 6_000 })),
    ]);
    expect(partial.sort()).toEqual(["OK", "UNPROCESSABLE_CONTENT"]);
    expect(await db.payment.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({
      refundedCents: 6_000,
      status: "CAPTURED",
    });

    // Two "refund the rest" at once: one refund of the whole amount.
    const b = await capturedPayment(db, accountId, 4_999, "INR");
    const full = await Promise.all([1, 2, 3].map(() => trpcCodeOf(revenue.caller.revenue.refund({ paymentId: b.id }))));
    expect(full.filter((c) => c === "OK")).toHaveLength(1);
    expect(full.filter((c) => c !== "OK").every((c) => c === "CONFLICT" || c === "UNPROCESSABLE_CONTENT")).toBe(true);
    expect(await db.payment.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({
      refundedCents: 4_999,
      status: "REFUNDED",
    });
    const rows = await refundsOf(db, b.id);
    expect(rows.map((r) => [r.amountCents, r.status])).toEqual([[4_999, "SUCCEEDED"]]);
  });

  it("refuses other accounts, other roles, bad input and payments that are not captured", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const editor = await createTestStaff(db, { roles: ["EDITOR"], account: revenue.account.id });
    const stranger = await createTestStaff(db, { roles: ["OWNER"] });
    const payment = await capturedPayment(db, revenue.account.id, 1_000);
    expect(await trpcCodeOf(stranger.caller.revenue.refund({ paymentId: payment.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(editor.caller.revenue.refund({ paymentId: payment.id }))).toBe("FORBIDDEN");
    for (const bad of [0, -5, 1.5])
      expect(await trpcCodeOf(revenue.caller.revenue.refund({ paymentId: payment.id, amountCents: bad }))).toBe(
        "BAD_REQUEST",
      );
    await db.payment.update({ where: { id: payment.id }, data: { status: "PENDING" } });
    expect(await trpcCodeOf(revenue.caller.revenue.refund({ paymentId: payment.id }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ refundedCents: 0 });
    expect(await refundsOf(db, payment.id)).toEqual([]);
    expect(await db.auditLog.count({ where: { accountId: revenue.account.id, action: "payment.refund" } })).toBe(0);
  });

  it("refunds a Razorpay payment through the gateway, partly and then in full, and gives a refused one back", async () => {
    const db = await getDb();
    const { fx, owner, accountId, creds } = await razorpayAccount(db);
    const checkout = await pendingRazorpayCheckout(db, {
      accountId,
      adapter: razorpayAdapter,
      creds,
      amountCents: 49_900,
    });
    const { payment: gatewayPayment } = fx.pay({ orderId: checkout.orderId });
    const payment = await db.payment.findFirstOrThrow({ where: { accountId, attemptId: checkout.attemptId } });
    await db.payment.update({
      where: { id: payment.id },
      data: { status: "CAPTURED", externalPaymentId: gatewayPayment.id as string },
    });

    const part = await owner.caller.revenue.refund({ paymentId: payment.id, amountCents: 10_000 });
    expect(part.refund.external_refund_id).toMatch(/^rfnd_/);
    expect(fx.refunds.at(-1)).toMatchObject({
      amount: 10_000,
      payment_id: gatewayPayment.id,
      receipt: `refund_${part.refund.id}`,
    });
    expect(fx.payments.get(gatewayPayment.id as string)).toMatchObject({ amount_refunded: 10_000, status: "captured" });

    // The gateway refuses (its payment is no longer captured): nothing is kept reserved.
    fx.payments.get(gatewayPayment.id as string)!.status = "failed";
    expect(await trpcCodeOf(owner.caller.revenue.refund({ paymentId: payment.id }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      refundedCents: 10_000,
      status: "CAPTURED",
    });
    expect((await refundsOf(db, payment.id)).map((r) => r.status)).toEqual(["SUCCEEDED", "FAILED"]);

    fx.payments.get(gatewayPayment.id as string)!.status = "captured";
    const rest = await owner.caller.revenue.refund({ paymentId: payment.id });
    expect(rest.refund.amount_cents).toBe(39_900);
    expect(rest.payment).toMatchObject({ refunded_cents: 49_900, status: "refunded" });
    expect(fx.payments.get(gatewayPayment.id as string)).toMatchObject({ amount_refunded: 49_900, status: "refunded" });
  });
});
