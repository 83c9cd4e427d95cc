/**
 * payment_disputed (jobs.ts): a dispute (chargeback) of a payment, as the gateway reports it, run
 * by "payment_gateway.event" (gateway-events.ts) in its transaction, under the payment's row lock.
 *
 * - A new dispute is recorded open (payment_disputes), audited `payment.dispute.opened`; revenue
 *   staff see it on the subscriber's payments.
 * - Decided: won closes it; lost closes it and records the disputed money as gone back to the
 *   reader (gateway-refunds.ts recordMoneyBack: a refund row, the credit note, the revenue
 *   report), audited `payment.dispute.won` / `.lost`. The subscription is left as it is: staff
 *   decide whether a reader who disputed keeps reading.
 * - Once, and in any order: a dispute is known by the gateway's id, and a decided one never opens
 *   again (a late "under review" after "lost" changes nothing).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { TransactionClient } from "../../db/client";
import type { GatewayEventDetails, PaymentAdapter } from "./adapter";
import { lockedPaymentOf, recordMoneyBack } from "./gateway-refunds";

type Outcome = { status: "processed" | "ignored"; reason: string | null };

export async function settleGatewayDispute(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<Outcome> {
  const { accountId, adapter, details, now } = args;
  const dispute = details.dispute;
  if (!dispute || !details.externalPaymentId)
    return { status: "ignored", reason: "The event names no dispute of a payment." };
  const payment = await lockedPaymentOf(tx, { accountId, adapter, externalPaymentId: details.externalPaymentId });
  if (!payment) return { status: "ignored", reason: "No payment of ours has this gateway payment id." };

  const key = { paymentId_externalDisputeId: { paymentId: payment.id, externalDisputeId: dispute.id } };
  let row = await tx.paymentDispute.findUnique({ where: key });
  if (row && row.status !== "open") return { status: "processed", reason: `The dispute was ${row.status} already.` };
  const audit = (action: string, extra: Record<string, string | number> = {}) =>
    recordAudit(tx, {
      actor: systemActor(accountId, "payment_gateway"),
      action,
      targetType: "payment",
      targetId: payment.id,
      metadata: {
        dispute_id: dispute.id,
        amount_cents: dispute.amountCents,
        currency: payment.currency,
        subscription_id: payment.subscriptionId,
        event: details.event,
        ...(dispute.reason ? { reason: dispute.reason } : {}),
        ...extra,
      },
      now,
    });
  if (!row) {
    row = await tx.paymentDispute.create({
      data: {
        accountId,
        paymentId: payment.id,
        externalDisputeId: dispute.id,
        amountCents: dispute.amountCents,
        currency: payment.currency,
        reason: dispute.reason?.slice(0, 200) ?? null,
        openedAt: now,
      },
    });
    await audit("payment.dispute.opened");
  }
  if (dispute.status === "open") return { status: "processed", reason: null };

  let refundId: number | null = null;
  if (dispute.status === "lost") {
    const gateway = adapter.displayName ?? adapter.provider ?? payment.paymentType;
    const externalRefundId = `dispute:${dispute.id}`;
    const amount = await recordMoneyBack(tx, {
      payment,
      amountCents: dispute.amountCents,
      externalRefundId,
      reason: `Dispute lost at ${gateway}${dispute.reason ? ` (${dispute.reason})` : ""}`,
      ours: null,
      audit: { event: details.event, dispute_id: dispute.id },
      now,
    });
    if (amount > 0)
      refundId = (await tx.paymentRefund.findFirstOrThrow({ where: { paymentId: payment.id, externalRefundId } })).id;
  }
  await tx.paymentDispute.update({
    where: { id: row.id },
    data: { status: dispute.status, closedAt: now, refundId },
  });
  await audit(`payment.dispute.${dispute.status}`);
  return { status: "processed", reason: null };
}
