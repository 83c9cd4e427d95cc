/**
 * Refunds Razorpay reports (refund.processed → payment_refunded, gateway-refunds.ts) through
 * receiveGatewayWebhook and the job engine, on PGlite and PostgreSQL: one made on Razorpay's
 * Dashboard is recorded once (repeated, and run by two workers at once), with its credit note and
 * audit entry; one staff made through Masthead is not recorded twice; one larger than what is left
 * is capped; one whose answer Masthead lost (its row failed) is recorded after all. Disputes
 * (payment.dispute.* → payment_disputed, gateway-disputes.ts): opened once, a won one closed, a
 * lost one recorded as the money gone back, and a late "under review" reopens nothing.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { pendingRazorpayCheckout, razorpayStandIn } from "../../testing/gateway-checkout";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { issueInvoiceForPayment } from "../invoices/invoices";
import { receiveGatewayWebhook } from "./gateway-events";
import { razorpayAdapter } from "./razorpay";

const razorpayAccount = razorpayStandIn();
const AMOUNT = 49_900;

/** A Razorpay account and a captured, invoiced payment of AMOUNT on it. */
async function setup() {
  const db = await getDb();
  const stand = await razorpayAccount(db);
  const { fx, accountId, creds } = stand;
  const checkout = await pendingRazorpayCheckout(db, {
    accountId,
    adapter: razorpayAdapter,
    creds,
    amountCents: AMOUNT,
  });
  const gatewayPayment = fx.pay({ orderId: checkout.orderId }).payment;
  const found = await db.payment.findFirstOrThrow({ where: { accountId, attemptId: checkout.attemptId } });
  const payment = await db.payment.update({
    where: { id: found.id },
    data: { status: "CAPTURED", externalPaymentId: gatewayPayment.id as string },
  });
  await issueInvoiceForPayment(db, payment.id, { now: new Date() });
  return { db, ...stand, payment, gatewayPayment };
}
type Ctx = Awaited<ReturnType<typeof setup>>;

/** A signed Razorpay webhook received as the route receives it. */
function deliver(ctx: Ctx, hook: { body: string; headers: Record<string, string> }) {
  return receiveGatewayWebhook(ctx.db, {
    provider: "razorpay",
    accountId: ctx.accountId,
    headers: new Headers(hook.headers),
    rawBody: hook.body,
    now: new Date(),
  });
}

/** Razorpay's refund.processed for `amount` of the payment (receipt: ours, when we asked). */
async function refundProcessed(ctx: Ctx, args: { id: string; amount: number; receipt?: string; eventId?: string }) {
  const refund = {
    id: args.id,
    entity: "refund",
    amount: args.amount,
    currency: "INR",
    payment_id: ctx.gatewayPayment.id,
    receipt: args.receipt ?? null,
    notes: [],
    status: "processed",
  };
  await deliver(ctx, ctx.fx.webhook("refund.processed", { refund, payment: ctx.gatewayPayment }, args.eventId));
}

const run = (db: Db, worker?: string) => runJobsNow(db, testJobDeps(), worker);

async function recorded(ctx: Ctx) {
  const payment = await ctx.db.payment.findUniqueOrThrow({ where: { id: ctx.payment.id } });
  const refunds = await ctx.db.paymentRefund.findMany({
    where: { paymentId: ctx.payment.id },
    orderBy: { id: "asc" },
    include: { creditNote: true },
  });
  return {
    payment: { status: payment.status, refunded: payment.refundedCents },
    refunds: refunds.map((r) => ({
      status: r.status,
      amount: r.amountCents,
      gateway: r.externalRefundId,
      staff: r.actorId !== null,
      creditNote: r.creditNote?.amountCents ?? null,
    })),
  };
}

describe("refunds the gateway reports", () => {
  it("records one made on Razorpay's Dashboard once, with its credit note, then caps one larger than what is left", async () => {
    const ctx = await setup();
    await refundProcessed(ctx, { id: "rfnd_DASH1", amount: 10_000, eventId: "evt_r1" });
    await refundProcessed(ctx, { id: "rfnd_DASH1", amount: 10_000, eventId: "evt_r1" });
    await refundProcessed(ctx, { id: "rfnd_DASH1", amount: 10_000, eventId: "evt_r1_again" });
    await Promise.all([run(ctx.db, "worker-a"), run(ctx.db, "worker-b")]);
    await run(ctx.db);
    expect(await recorded(ctx)).toEqual({
      payment: { status: "CAPTURED", refunded: 10_000 },
      refunds: [{ status: "SUCCEEDED", amount: 10_000, gateway: "rfnd_DASH1", staff: false, creditNote: 10_000 }],
    });
    const audit = await ctx.db.auditLog.findMany({ where: { accountId: ctx.accountId, action: "payment.refund" } });
    expect(audit.map((a) => (a.metadata as { source?: string }).source)).toEqual(["gateway"]);
    const reason = await ctx.db.paymentRefund.findFirstOrThrow({ where: { paymentId: ctx.payment.id } });
    expect(reason.reason).toBe("Refunded at Razorpay");

    // More than is left (a refund made again on the Dashboard): what is left, and the payment is refunded.
    await refundProcessed(ctx, { id: "rfnd_DASH2", amount: AMOUNT });
    await run(ctx.db);
    expect(await recorded(ctx)).toMatchObject({
      payment: { status: "REFUNDED", refunded: AMOUNT },
      refunds: [{ amount: 10_000 }, { amount: AMOUNT - 10_000, gateway: "rfnd_DASH2", creditNote: AMOUNT - 10_000 }],
    });
  });

  it("does not record twice a refund staff made through Masthead, and records one whose answer was lost", async () => {
    const ctx = await setup();
    const staff = await ctx.owner.caller.revenue.refund({ paymentId: ctx.payment.id, amountCents: 5_000 });
    await refundProcessed(ctx, {
      id: staff.refund.external_refund_id!,
      amount: 5_000,
      receipt: `refund_${staff.refund.id}`,
    });
    await run(ctx.db);
    expect(await recorded(ctx)).toEqual({
      payment: { status: "CAPTURED", refunded: 5_000 },
      refunds: [
        {
          status: "SUCCEEDED",
          amount: 5_000,
          gateway: staff.refund.external_refund_id,
          staff: true,
          creditNote: 5_000,
        },
      ],
    });

    // Staff ask again; Razorpay refunds, but its answer never reaches Masthead (the row failed).
    const lost = await ctx.db.paymentRefund.create({
      data: {
        accountId: ctx.accountId,
        paymentId: ctx.payment.id,
        amountCents: 7_000,
        status: "FAILED",
        error: "timeout",
      },
    });
    await refundProcessed(ctx, { id: "rfnd_LOST", amount: 7_000, receipt: `refund_${lost.id}` });
    await run(ctx.db);
    expect(await recorded(ctx)).toMatchObject({
      payment: { status: "CAPTURED", refunded: 12_000 },
      refunds: [{ amount: 5_000 }, { status: "SUCCEEDED", amount: 7_000, gateway: "rfnd_LOST", creditNote: 7_000 }],
    });
  });
});

/** Razorpay's payment.dispute.<state> for the payment. */
async function disputeEvent(ctx: Ctx, id: string, state: "created" | "under_review" | "won" | "lost", amount = AMOUNT) {
  const dispute = {
    id,
    entity: "dispute",
    payment_id: ctx.gatewayPayment.id,
    amount,
    currency: "INR",
    reason_code: "fraudulent",
    status: state === "created" ? "open" : state,
    phase: "chargeback",
  };
  await deliver(ctx, ctx.fx.webhook(`payment.dispute.${state}`, { dispute, payment: ctx.gatewayPayment }));
}

describe("disputes the gateway reports", () => {
  it("opens a dispute once; lost, the money is recorded as gone back; a late 'under review' changes nothing", async () => {
    const ctx = await setup();
    await disputeEvent(ctx, "disp_1", "created");
    await disputeEvent(ctx, "disp_1", "under_review");
    await run(ctx.db);
    const disputes = () => ctx.db.paymentDispute.findMany({ where: { paymentId: ctx.payment.id } });
    expect((await disputes()).map((d) => [d.status, d.amountCents, d.reason, d.refundId])).toEqual([
      ["open", AMOUNT, "fraudulent", null],
    ]);
    expect(await recorded(ctx)).toMatchObject({ payment: { status: "CAPTURED", refunded: 0 }, refunds: [] });

    await disputeEvent(ctx, "disp_1", "lost");
    await disputeEvent(ctx, "disp_1", "under_review");
    await run(ctx.db);
    expect(await recorded(ctx)).toEqual({
      payment: { status: "REFUNDED", refunded: AMOUNT },
      refunds: [{ status: "SUCCEEDED", amount: AMOUNT, gateway: "dispute:disp_1", staff: false, creditNote: AMOUNT }],
    });
    const [lost] = await disputes();
    expect(lost).toMatchObject({ status: "lost", closedAt: expect.any(Date) as Date });
    expect(lost!.refundId).not.toBeNull();
    const audit = await ctx.db.auditLog.findMany({
      where: { accountId: ctx.accountId, action: { startsWith: "payment.dispute" } },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual(["payment.dispute.opened", "payment.dispute.lost"]);
    // Revenue staff see it on the subscriber's payments.
    const sub = await ctx.db.subscription.findUniqueOrThrow({ where: { id: ctx.payment.subscriptionId! } });
    const activity = await ctx.owner.caller.revenue.subscriberActivity({ memberId: sub.memberId });
    expect(activity.payments.find((p) => p.id === ctx.payment.id)?.disputes).toEqual([
      expect.objectContaining({ status: "lost", amount_cents: AMOUNT, reason: "fraudulent" }),
    ]);
  });

  it("closes a won dispute with no money moved; a dispute after a partial refund gives back at most what is left", async () => {
    const ctx = await setup();
    await disputeEvent(ctx, "disp_W", "won");
    await run(ctx.db);
    expect(
      (await ctx.db.paymentDispute.findMany({ where: { paymentId: ctx.payment.id } })).map((d) => d.status),
    ).toEqual(["won"]);
    expect(await recorded(ctx)).toMatchObject({ payment: { refunded: 0 }, refunds: [] });

    await ctx.owner.caller.revenue.refund({ paymentId: ctx.payment.id, amountCents: 9_900 });
    await disputeEvent(ctx, "disp_L", "lost");
    await run(ctx.db);
    expect(await recorded(ctx)).toMatchObject({
      payment: { status: "REFUNDED", refunded: AMOUNT },
      refunds: [
        { amount: 9_900, staff: true },
        { amount: AMOUNT - 9_900, gateway: "dispute:disp_L" },
      ],
    });
  });
});
