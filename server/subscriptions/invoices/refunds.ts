/**
 * Refunds by revenue staff: part or all of a captured payment, through the payment's
 * own adapter (../payments/adapter.ts `refund`), audited as `payment.refund`.
 *
 * Never more than captured minus refunded, also under parallel requests: the amount is first
 * *reserved* on the payment with one conditional UPDATE (`refunded_cents + x <= amount_cents`,
 * plus a CHECK constraint in the database), then the gateway is asked outside any transaction
 * (no row lock is held during a network call). A refusal or an unreachable gateway gives the
 * reservation back and marks the refund row failed. The payment becomes REFUNDED once its
 * succeeded refunds add up to the whole amount (decided under the payment's row lock, so two
 * refunds finishing together cannot both miss it). A succeeded refund of an invoiced payment gets
 * its credit note in that same transaction (credit-notes.ts).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";
import { PaymentAdapterError, type PaymentAdapter } from "../payments/adapter";
import { gatewayCredentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { ZRefundPaymentInput, type TRefundPaymentInput } from "../reports/revenue.schema";
import { issueCreditNoteForRefund } from "./credit-notes";

type RefundOutcome = {
  refund: {
    id: number;
    payment_id: number;
    amount_cents: number;
    currency: string;
    status: "succeeded";
    external_refund_id: string | null;
    created_at: string;
    /** The refund's credit note; null when the payment was not invoiced. */
    credit_note_id: number | null;
  };
  payment: { id: number; amount_cents: number; refunded_cents: number; status: string };
};

const unprocessable = (message: string, field = "amountCents") =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue: message }] });

export async function refundPayment(
  db: Db,
  args: {
    actor: Actor;
    input: TRefundPaymentInput;
    now?: Date;
    ip?: string | null;
    /** Tests only: another adapter lookup. */
    adapterFor?: (paymentType: string) => PaymentAdapter | null;
  },
): Promise<RefundOutcome> {
  const input = parseInput(ZRefundPaymentInput, args.input);
  const accountId = args.actor.accountId;
  const payment = await db.payment.findFirst({ where: { id: input.paymentId, accountId } });
  if (!payment) throw new AppError("NOT_FOUND", "No such payment.");
  if (payment.status === "REFUNDED") throw new AppError("CONFLICT", "This payment has been refunded in full already.");
  if (payment.status !== "CAPTURED")
    throw unprocessable(
      `Only a captured payment can be refunded (this one is ${payment.status.toLowerCase()}).`,
      "paymentId",
    );
  const remaining = payment.amountCents - payment.refundedCents;
  const amount = input.amountCents ?? remaining;
  if (amount <= 0) throw new AppError("CONFLICT", "Nothing is left to refund on this payment.");
  if (amount > remaining)
    throw unprocessable(`At most ${remaining} cents (${payment.currency}) can still be refunded.`);

  const adapter = (args.adapterFor ?? paymentAdapterFor)(payment.paymentType);
  if (!adapter?.refund)
    throw unprocessable(`Payments of type ${payment.paymentType} cannot be refunded here.`, "paymentId");
  const creds = adapter.provider
    ? await gatewayCredentialsFor(db, accountId, adapter.provider, { includeDisabled: true })
    : null;
  if (adapter.provider && !creds)
    throw unprocessable(`The account has no ${adapter.provider} credentials to refund through.`, "paymentId");

  // 1. Reserve the amount (atomic: a parallel refund sees the new balance or fails the condition).
  const refundRow = await withTransaction(db, async (tx) => {
    const reserved = await tx.$executeRaw`
      UPDATE payments SET refunded_cents = refunded_cents + ${amount}, updated_at = now()
      WHERE id = ${payment.id} AND account_id = ${accountId} AND status = 'captured'
        AND refunded_cents + ${amount} <= amount_cents`;
    if (reserved !== 1) return null;
    return tx.paymentRefund.create({
      data: {
        accountId,
        paymentId: payment.id,
        amountCents: amount,
        reason: input.reason || null,
        actorId: actorUserId(args.actor),
        ...(args.now ? { createdAt: args.now } : {}),
      },
    });
  });
  if (!refundRow) {
    const now = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    const left = now.amountCents - now.refundedCents;
    if (now.status === "REFUNDED" || left <= 0)
      throw new AppError("CONFLICT", "This payment has been refunded in full already.");
    throw unprocessable(`At most ${left} cents (${payment.currency}) can still be refunded.`);
  }

  // 2. Ask the gateway, holding no lock.
  let result;
  try {
    result = await adapter.refund(creds, {
      accountId,
      refundId: refundRow.id,
      paymentType: payment.paymentType,
      externalPaymentId: payment.externalPaymentId,
      paymentAmountCents: payment.amountCents,
      amountCents: amount,
      currency: payment.currency,
      reason: input.reason || null,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await withTransaction(db, async (tx) => {
      await tx.$executeRaw`
        UPDATE payments SET refunded_cents = refunded_cents - ${amount}, updated_at = now()
        WHERE id = ${payment.id}`;
      await tx.paymentRefund.update({
        where: { id: refundRow.id },
        data: { status: "FAILED", error: message.slice(0, 500) },
      });
    });
    if (error instanceof PaymentAdapterError) {
      if (error.kind === "unavailable")
        throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; nothing was refunded.", {
          cause: error,
        });
      throw unprocessable(`The gateway refused the refund: ${error.message}`, "paymentId");
    }
    throw error;
  }

  // 3. Record it: the refund succeeded, the payment REFUNDED when nothing is left, the audit entry.
  return withTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT id FROM payments WHERE id = ${payment.id} FOR UPDATE`;
    const refund = await tx.paymentRefund.update({
      where: { id: refundRow.id },
      data: { status: "SUCCEEDED", externalRefundId: result.externalRefundId },
    });
    await markRefundedWhenWhole(tx, payment.id);
    const after = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
    // An invoiced payment's refund is credited (credit-notes.ts); a trial's authorization is not invoiced.
    const credited = await issueCreditNoteForRefund(tx, refund.id, args.now ? { now: args.now } : {});
    await recordAudit(tx, {
      actor: args.actor,
      action: "payment.refund",
      targetType: "payment",
      targetId: payment.id,
      metadata: {
        refund_id: refund.id,
        amount_cents: amount,
        currency: payment.currency,
        payment_type: payment.paymentType,
        subscription_id: payment.subscriptionId,
        external_refund_id: result.externalRefundId,
        full: after.status === "REFUNDED",
        ...(credited.creditNote ? { credit_note_id: credited.creditNote.id } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      },
      ip: args.ip ?? null,
      ...(args.now ? { now: args.now } : {}),
    });
    return {
      refund: {
        id: refund.id,
        payment_id: payment.id,
        amount_cents: refund.amountCents,
        currency: payment.currency,
        status: "succeeded" as const,
        external_refund_id: refund.externalRefundId,
        created_at: refund.createdAt.toISOString(),
        credit_note_id: credited.creditNote?.id ?? null,
      },
      payment: {
        id: after.id,
        amount_cents: after.amountCents,
        refunded_cents: after.refundedCents,
        status: after.status.toLowerCase(),
      },
    };
  });
}

/**
 * The payment becomes REFUNDED once its succeeded refunds add up to its whole amount (called under
 * the payment's row lock, so two refunds finishing together cannot both miss it).
 */
export async function markRefundedWhenWhole(tx: TransactionClient, paymentId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE payments p SET status = 'refunded', updated_at = now()
    WHERE p.id = ${paymentId} AND p.status = 'captured' AND p.amount_cents = (
      SELECT COALESCE(SUM(r.amount_cents), 0) FROM payment_refunds r
      WHERE r.payment_id = p.id AND r.status = 'succeeded')`;
}
