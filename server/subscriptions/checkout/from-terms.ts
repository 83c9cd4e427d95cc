/**
 * What a checkout's create makes from the frozen terms (./terms.ts) it was previewed with: the
 * payment intent the gateway verifies, the subscription's dates and its row, and an adapter's
 * refusal as the client sees it.
 */
import "server-only";

import { AppError } from "../../errors";
import type { MemberRecord } from "../../members/members";
import { PaymentAdapterError, type PaymentIntent } from "../payments/adapter";
import { addDuration } from "../subscribers/subscription-state";
import { CREATED_BY, type CheckoutWho } from "./buyer";
import { unprocessable, type AttemptTerms } from "./terms";

export function intentOf(
  accountId: number,
  attemptId: string,
  terms: AttemptTerms,
  who: CheckoutWho,
  member: MemberRecord | null,
): PaymentIntent {
  return {
    accountId,
    attemptId,
    amountCents: terms.amount_cents,
    currency: terms.currency,
    recurring: terms.recurring,
    trial: terms.trial,
    periodCents: terms.total_cents,
    period: terms.recurring ? { length: terms.duration_length, unit: terms.duration_unit } : null,
    plan: { id: terms.plan_id, title: terms.plan_name, metadata: terms.plan_metadata ?? null },
    subscriber: {
      id: member?.id ?? null,
      name: member?.name ?? terms.name,
      email: who.channel === "guest" ? who.email : (member?.communicationEmail ?? null),
      phone: who.channel === "guest" ? who.phone : null,
    },
  };
}

/** An adapter's refusal as the client sees it: 422 (declined, invalid) or 503 (gateway unreachable). */
export function adapterError(error: unknown): never {
  if (error instanceof PaymentAdapterError) {
    if (error.kind === "unavailable")
      throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.", {
        cause: error,
      });
    throw unprocessable("subscription.payment", error.message, `The payment was refused: ${error.message}`);
  }
  throw error;
}

/** When a subscription made from `terms` now starts, ends, leaves its trial and is next due. */
export function timing(terms: AttemptTerms, now: Date) {
  // A renewal starts when the subscription it renews ends, or now if that has passed.
  const renewalStart = terms.renewal_of ? Date.parse(terms.renewal_of.starts_at) : 0;
  const start = renewalStart > now.getTime() ? new Date(renewalStart) : now;
  const trialEndsAt = terms.trial ? addDuration(start, terms.trial.length, terms.trial.unit) : null;
  const periodStart = trialEndsAt ?? start;
  const end = addDuration(periodStart, terms.duration_length, terms.duration_unit);
  return {
    start,
    end,
    trialEndsAt,
    nextPaymentDueDate: terms.recurring ? (trialEndsAt ?? end) : null,
  };
}

/** The subscription's columns from the frozen terms (plan copy, payment, discount, tax…). */
export function rowFields(
  accountId: number,
  terms: AttemptTerms,
  t: { start: Date; end: Date | null; trialEndsAt: Date | null; nextPaymentDueDate: Date | null },
) {
  return {
    accountId,
    subscriptionType: terms.subscription_type,
    planId: terms.kind === "plan" ? terms.plan_id : null,
    groupId: terms.group_id,
    pricingPlanId: terms.kind === "pricing_plan" ? terms.plan_id : null,
    preferredIdentity: terms.preferred_identity,
    externalId: null,
    createdBy: CREATED_BY[terms.channel],
    referrer: null,
    gifterMemberId: null,
    code: null,
    startTimestamp: t.start,
    endTimestamp: t.end,
    cancelledAt: null,
    nextPaymentDueDate: t.nextPaymentDueDate,
    renewalReminderSentAt: null,
    trialEndsAt: t.trialEndsAt,
    trialPeriodLength: terms.trial?.length ?? null,
    trialPeriodUnit: terms.trial?.unit ?? null,
    graceEndsAt: null,
    planName: terms.plan_name,
    planDescription: terms.plan_description,
    groupName: terms.group_name,
    groupDescription: terms.group_description,
    durationLength: terms.duration_length,
    durationUnit: terms.duration_unit,
    planAmountCents: terms.plan_amount_cents,
    planAmountCurrency: terms.currency,
    recurring: terms.recurring,
    paymentType: terms.payment_type,
    paymentToken: null as string | null,
    // What each period is charged: the price after coupon and tax. With a trial this payment is
    // only the authorization (terms.amount_cents, the checkout's Payment row); the periods cost this.
    paymentAmountCents: terms.total_cents,
    paymentAmountCurrency: terms.currency,
    taxAmountCents: terms.tax_cents,
    taxDetail: terms.tax_lines,
    couponId: terms.coupon?.id ?? null,
    couponCode: terms.coupon?.code ?? null,
    discountDetail: terms.discount_detail,
    dynamicAssets: terms.dynamic_assets,
    campaignId: terms.campaign?.id ?? null,
    campaignName: terms.campaign?.name ?? null,
    metadata: terms.metadata ?? {},
    notes: terms.notes,
    deletedAt: null,
  };
}
