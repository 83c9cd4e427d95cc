/**
 * Recurring charges as Payment rows: every captured charge of a period (the lifecycle's own, a
 * gateway's recurring webhook, a prorated plan switch) is written and invoiced here, once.
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import type { Prisma, Subscription } from "../../generated/prisma/client";
import { issueInvoiceForPayment } from "../invoices/invoices";

type RecordChargeInput = {
  subscription: Pick<Subscription, "id" | "accountId" | "paymentType" | "attemptId">;
  amountCents: number;
  currency: string;
  /** The gateway's payment id (null for charges without one, e.g. sponsored). */
  externalPaymentId: string | null;
  externalOrderId?: string | null;
  /** The period this charge pays for. */
  periodStart: Date;
  periodEnd: Date | null;
  /** "lifecycle" (we charged), "gateway" (the gateway's recurring webhook) or "plan_switch" (a prorated upgrade). */
  source: "lifecycle" | "gateway" | "plan_switch";
  /** Credit balance (subscriptions.credit_cents) taken off this charge; its invoice shows the line. */
  creditAppliedCents?: number;
  details?: Record<string, unknown>;
  now: Date;
};

/**
 * THE one place a captured recurring charge becomes a Payment row, and its invoice. Returns
 * null when this gateway payment is already recorded (a repeated webhook, a retried charge):
 * the caller then changes nothing else.
 */
export async function recordCharge(tx: TransactionClient, input: RecordChargeInput): Promise<{ id: number } | null> {
  const payment = await insertCharge(tx, input);
  // Every captured charge is invoiced, in the transaction that records it (../invoices/invoices.ts).
  if (payment) await issueInvoiceForPayment(tx, payment.id, { now: input.now });
  return payment;
}

async function insertCharge(tx: TransactionClient, input: RecordChargeInput): Promise<{ id: number } | null> {
  const { subscription } = input;
  if (input.externalPaymentId) {
    const [row] = await tx.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO payments (account_id, subscription_id, attempt_id, payment_type, external_payment_id, external_order_id,
                             amount_cents, currency, status, details, created_at, updated_at)
       VALUES ($1, $2, $3::uuid, $4, $5, $6, $7, $8, 'captured', $9::jsonb, $10::timestamptz, $10::timestamptz)
       ON CONFLICT (account_id, payment_type, external_payment_id) DO NOTHING
       RETURNING id`,
      subscription.accountId,
      subscription.id,
      subscription.attemptId,
      subscription.paymentType,
      input.externalPaymentId,
      input.externalOrderId ?? null,
      input.amountCents,
      input.currency,
      JSON.stringify(chargeDetails(input)),
      input.now.toISOString(),
    );
    return row ?? null;
  }
  return tx.payment.create({
    data: {
      accountId: subscription.accountId,
      subscriptionId: subscription.id,
      attemptId: subscription.attemptId,
      paymentType: subscription.paymentType,
      externalOrderId: input.externalOrderId ?? null,
      amountCents: input.amountCents,
      currency: input.currency,
      status: "CAPTURED",
      details: chargeDetails(input),
      createdAt: input.now,
    },
    select: { id: true },
  });
}

function chargeDetails(input: RecordChargeInput): Prisma.InputJsonObject {
  return {
    recurring_charge: {
      source: input.source,
      period_start: input.periodStart.toISOString(),
      period_end: input.periodEnd?.toISOString() ?? null,
      ...(input.creditAppliedCents ? { credit_applied_cents: input.creditAppliedCents } : {}),
    },
    ...(input.details ? { gateway: input.details as Prisma.InputJsonObject } : {}),
  };
}
