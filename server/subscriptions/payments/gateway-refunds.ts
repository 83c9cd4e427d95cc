/**
 * payment_refunded (jobs.ts): a refund the gateway reports by webhook, run by
 * "payment_gateway.event" (gateway-events.ts) in its transaction. Refunds made on the gateway's
 * own dashboard reach Masthead this way, and so does the answer to a refund asked through
 * Masthead (refunds.ts) that was lost on the way back. Either way the refund is recorded once:
 *
 * - known by the gateway's refund id (a repeated event, or the refund refunds.ts recorded);
 * - a refund Masthead asked for carries our refund's id: still under way, refunds.ts records it;
 *   failed here (its answer was lost) but done at the gateway, it is recorded now;
 * - any other is a refund made at the gateway: a succeeded refund row (no staff member), never
 *   more than what is left of the payment, the payment refunded once nothing is left, its credit
 *   note (credit-notes.ts) and the audit entry, as refunds.ts writes them.
 *
 * The payment's row is locked first, so a staff refund finishing at the same time and this event
 * take turns.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { TransactionClient } from "../../db/client";
import type { Payment, PaymentRefund } from "../../generated/prisma/client";
import { issueCreditNoteForRefund } from "../invoices/credit-notes";
import { markRefundedWhenWhole } from "../invoices/refunds";
import type { GatewayEventDetails, PaymentAdapter } from "./adapter";
import { gatewayCredentialsFor } from "./credentials";

type Outcome = { status: "processed" | "ignored"; reason: string | null };

export async function settleGatewayRefund(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<Outcome> {
  const { accountId, adapter, details, now } = args;
  const refund = details.refund;
  if (!refund || !details.externalPaymentId || refund.amountCents <= 0)
    return { status: "ignored", reason: "The event names no refund of a payment." };
  const payment = await lockedPaymentOf(tx, { accountId, adapter, externalPaymentId: details.externalPaymentId });
  if (!payment) return { status: "ignored", reason: "No payment of ours has this gateway payment id." };

  if (await tx.paymentRefund.findFirst({ where: { paymentId: payment.id, externalRefundId: refund.id } }))
    return { status: "processed", reason: "This refund is recorded already." };
  const ours =
    refund.mastheadRefundId === null
      ? null
      : await tx.paymentRefund.findFirst({ where: { id: refund.mastheadRefundId, paymentId: payment.id } });
  if (ours?.status === "PENDING")
    return { status: "processed", reason: "A refund staff asked for: it is recorded as it finishes." };
  if (ours?.status === "SUCCEEDED") {
    await tx.paymentRefund.update({ where: { id: ours.id }, data: { externalRefundId: refund.id } });
    return { status: "processed", reason: "This refund is recorded already." };
  }

  const gateway = adapter.displayName ?? adapter.provider ?? payment.paymentType;
  // Ours, failed here while the gateway refunded (its answer was lost): succeeded after all.
  const amount = await recordMoneyBack(tx, {
    payment,
    amountCents: refund.amountCents,
    externalRefundId: refund.id,
    reason: `Refunded at ${gateway}`,
    ours: ours ?? null,
    audit: { event: details.event },
    now,
  });
  if (amount === 0) return { status: "processed", reason: "Nothing is left of the payment to record a refund of." };
  return {
    status: "processed",
    reason:
      amount < refund.amountCents
        ? `Recorded ${amount} of the ${refund.amountCents} refunded: no more was left.`
        : null,
  };
}

/**
 * The account's payment of the gateway's payment id, its row locked; null: none of ours. A payment
 * recorded under another id of the gateway's (a Stripe subscription's charge, by its invoice) is
 * found through the adapter's paymentAliases.
 */
export async function lockedPaymentOf(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; externalPaymentId: string },
): Promise<Payment | null> {
  const { accountId, adapter } = args;
  const find = (ids: string[]) =>
    tx.payment.findFirst({
      where: { accountId, paymentType: { in: [...adapter.paymentTypes] }, externalPaymentId: { in: ids } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
  let found = await find([args.externalPaymentId]);
  if (!found && adapter.paymentAliases && adapter.provider) {
    const creds = await gatewayCredentialsFor(tx, accountId, adapter.provider, { includeDisabled: true });
    const aliases = creds ? await adapter.paymentAliases(creds, args.externalPaymentId) : [];
    if (aliases.length) found = await find(aliases);
  }
  if (!found) return null;
  await tx.$queryRaw`SELECT id FROM payments WHERE id = ${found.id} FOR UPDATE`;
  return tx.payment.findUniqueOrThrow({ where: { id: found.id } });
}

/**
 * Money of `payment` went back to the reader at the gateway (a refund made there, a dispute lost):
 * recorded as a refund staff make here is, under the payment's row lock the caller holds: a
 * succeeded refund row (`ours`, a failed one of ours, becomes it), never more than what is left,
 * the payment refunded once nothing is, its credit note and the `payment.refund` audit entry.
 * Returns the amount recorded (0: nothing was left).
 */
export async function recordMoneyBack(
  tx: TransactionClient,
  args: {
    payment: Payment;
    amountCents: number;
    externalRefundId: string;
    reason: string;
    ours: PaymentRefund | null;
    audit: Record<string, string | number>;
    now: Date;
  },
): Promise<number> {
  const { payment, now } = args;
  const amount = Math.min(args.amountCents, payment.amountCents - payment.refundedCents);
  if (amount <= 0) return 0;
  await tx.payment.update({ where: { id: payment.id }, data: { refundedCents: { increment: amount } } });
  const row = args.ours
    ? await tx.paymentRefund.update({
        where: { id: args.ours.id },
        data: { status: "SUCCEEDED", externalRefundId: args.externalRefundId, amountCents: amount, error: null },
      })
    : await tx.paymentRefund.create({
        data: {
          accountId: payment.accountId,
          paymentId: payment.id,
          amountCents: amount,
          status: "SUCCEEDED",
          externalRefundId: args.externalRefundId,
          reason: args.reason,
          createdAt: now,
        },
      });
  await markRefundedWhenWhole(tx, payment.id);
  const credited = await issueCreditNoteForRefund(tx, row.id, { now });
  await recordAudit(tx, {
    actor: systemActor(payment.accountId, "payment_gateway"),
    action: "payment.refund",
    targetType: "payment",
    targetId: payment.id,
    metadata: {
      refund_id: row.id,
      amount_cents: amount,
      currency: payment.currency,
      payment_type: payment.paymentType,
      subscription_id: payment.subscriptionId,
      external_refund_id: args.externalRefundId,
      source: "gateway",
      ...args.audit,
      ...(amount < args.amountCents ? { gateway_amount_cents: args.amountCents } : {}),
      ...(credited.creditNote ? { credit_note_id: credited.creditNote.id } : {}),
    },
    now,
  });
  return amount;
}
