/**
 * A recurring subscription's plan switch (./plan-switch.ts), decided and applied:
 *
 * - **Now, prorated** when its group prorates (subscription_groups.proration_enabled) and its
 *   payment adapter charges a stored payment method (`chargeRecurring`, as renewals and dunning
 *   do): the credit for the unused part of the current period and the new plan's price for the
 *   rest of it (plan-switch-proration.ts `proratedRecurringSwitch`). An upgrade charges the
 *   difference at the confirm, through `chargeRecurring` on the subscription's payment_token with
 *   the idempotency key `plan_switch:<attempt id>`, recorded by the lifecycle's `recordCharge` (one
 *   payment row, unique per gateway payment id, and its invoice). A downgrade's difference becomes
 *   the subscription's credit balance (credit_cents), taken off the next renewal charges. Another
 *   billing interval starts a new period now (the cycle resets).
 * - **Now, prorated by the gateway** when the gateway charges its subscriptions by itself but
 *   prorates a plan change itself (stripe_recurring: the adapter's `planChangeTimings` has "now"):
 *   the figures are the gateway's, quoted at the preview and charged through it at the confirm
 *   (./plan-switch-gateway.ts); a switch the gateway would turn into a credit of its own waits
 *   for the next charge instead (`gateway_credit`).
 * - **Scheduled for the next charge** otherwise: proration off, a gateway that charges its
 *   subscriptions by itself and changes their plan only from the next cycle (razorpay_recurring),
 *   a subscription nobody charges to a stored card (manual), or a free trial (nothing paid to
 *   prorate against). `reason` says which. A gateway that charges by itself is told at the confirm
 *   (`gateway`), so its next charge is the new plan's price too.
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Subscription } from "../../generated/prisma/client";
import { PaymentAdapterError, type PaymentAdapter } from "../payments/adapter";
import { chargesOnRequest } from "../payments/billing-source";
import { credentialsFor } from "../payments/credentials";
import { addDuration } from "../subscribers/subscription-state";
import { recordCharge } from "./charges";
import { scheduleSubscriptionLifecycle } from "./lifecycle";
import { switchAtGatewayNow } from "./plan-switch-gateway";
import { applyCredit, proratedRecurringSwitch, type Interval } from "./plan-switch-proration";
import { switchTo } from "./plan-switch-scheduled";
import { gatewayProrates, type RecurringSwitchTerms, type ScheduledReason } from "./plan-switch-terms";

type SubForSwitch = Pick<
  Subscription,
  | "startTimestamp"
  | "endTimestamp"
  | "nextPaymentDueDate"
  | "trialEndsAt"
  | "paymentAmountCents"
  | "durationLength"
  | "durationUnit"
>;

/** The current paid period of a recurring subscription: [period end − one interval, period end). */
function currentPeriod(sub: SubForSwitch): { start: Date; end: Date } | null {
  const end = sub.nextPaymentDueDate ?? sub.endTimestamp;
  if (!end) return null;
  const back = addDuration(end, -sub.durationLength, sub.durationUnit);
  const start = back && back > sub.startTimestamp ? back : sub.startTimestamp;
  return { start, end };
}

/** The terms of switching a recurring subscription to a plan of `priceCents` per `target` interval. */
export function recurringSwitchTerms(args: {
  sub: SubForSwitch;
  prorationEnabled: boolean;
  adapter: PaymentAdapter | null;
  priceCents: number;
  target: Interval;
  now: Date;
}): RecurringSwitchTerms {
  const { sub, now } = args;
  const period = currentPeriod(sub);
  const applyAt = (sub.nextPaymentDueDate ?? sub.endTimestamp)?.toISOString() ?? null;
  if (!args.prorationEnabled) return { mode: "scheduled", apply_at: applyAt, reason: "proration_off" };
  if (!chargesOnRequest(args.adapter) && !gatewayProrates(args.adapter))
    return { mode: "scheduled", apply_at: applyAt, reason: args.adapter?.provider ? "gateway_charges" : "not_charged" };
  if ((sub.trialEndsAt && sub.trialEndsAt > now) || !period)
    return { mode: "scheduled", apply_at: applyAt, reason: "trial" };
  const p = proratedRecurringSwitch({
    periodStart: period.start,
    periodEnd: period.end,
    now,
    paidCents: sub.paymentAmountCents,
    targetPriceCents: args.priceCents,
    current: { length: sub.durationLength, unit: sub.durationUnit },
    target: args.target,
  });
  const nextChargeAt = p.resetsCycle ? addDuration(now, args.target.length, args.target.unit) : period.end;
  return {
    mode: "now",
    period_end: period.end.toISOString(),
    credit_cents: p.creditCents,
    rest_cents: p.restCents,
    charge_cents: p.chargeCents,
    carry_cents: p.carryCents,
    resets_cycle: p.resetsCycle,
    next_charge_at: (nextChargeAt ?? period.end).toISOString(),
  };
}

/** Why a scheduled switch waits, as the switch's message says it. */
export const SCHEDULED_WHY: Record<ScheduledReason, string> = {
  proration_off: "proration is off",
  gateway_charges: "the payment gateway charges this subscription by itself and changes its plan from the next charge",
  gateway_credit:
    "the payment gateway would keep the difference as a credit of its own, so the cheaper plan starts at the next charge",
  not_charged: "this subscription is not charged to a stored payment method",
  trial: "nothing was paid to prorate during the free trial",
};

/**
 * What a recurring switch's preview adds: how the charge is taken, the credit carried, the next
 * charge (its date and amount after any credit balance), and why a switch waits.
 */
export function switchExtras(
  sub: { recurring: boolean; creditCents: number },
  price: number,
  recurring: RecurringSwitchTerms | undefined,
) {
  if (!sub.recurring || !recurring) return { charged_with: "payment" as const };
  if (recurring.mode === "scheduled")
    return {
      charged_with: null,
      scheduled_reason: recurring.reason,
      credit_balance_cents: sub.creditCents,
      next_charge_at: recurring.apply_at,
      next_charge_cents: applyCredit(price, sub.creditCents).chargeCents,
    };
  return {
    charged_with: recurring.charge_cents > 0 ? ("stored_method" as const) : null,
    rest_cents: recurring.rest_cents,
    carry_cents: recurring.carry_cents,
    resets_cycle: recurring.resets_cycle,
    credit_balance_cents: sub.creditCents + recurring.carry_cents,
    next_charge_at: recurring.next_charge_at,
    next_charge_cents: applyCredit(price, sub.creditCents + recurring.carry_cents).chargeCents,
  };
}

const unprocessable = (field: string, issue: string, message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue }] });

/**
 * Apply a recurring switch previewed "now", in the confirm's transaction, with the subscription's
 * row locked and the attempt claimed: charge an upgrade through the stored method (idempotent on
 * the attempt: a repeated call gets the gateway's first answer, and the payment row is unique per
 * gateway payment id), give the subscription the target plan, carry a downgrade's credit.
 * A declined charge throws (422): the transaction, and the claim of the attempt, roll back.
 */
export async function applyRecurringSwitchNow(
  tx: TransactionClient,
  args: {
    sub: Subscription;
    terms: Extract<RecurringSwitchTerms, { mode: "now" }>;
    attemptId: string;
    adapter: PaymentAdapter;
    target: Parameters<typeof switchTo>[1]["target"] & { metadata: unknown };
    priceCents: number;
    currency: string;
    now: Date;
  },
) {
  const { sub, terms, now } = args;
  if ((sub.nextPaymentDueDate ?? sub.endTimestamp)?.toISOString() !== terms.period_end)
    throw unprocessable(
      "attempt_token",
      "the subscription's period changed since the preview",
      "Your subscription renewed since this preview; nothing was charged. Preview the change again.",
    );
  const newPeriodStart = terms.resets_cycle ? now : null;
  let nextChargeAt = new Date(terms.next_charge_at);
  const gateway = terms.gateway;
  if (gateway) {
    // The gateway charges by itself and prorates the switch itself (Stripe): charged and changed there.
    const made = await switchAtGatewayNow(tx, { ...args, terms: { ...terms, gateway } });
    nextChargeAt = made.nextChargeAt ?? nextChargeAt;
  } else if (terms.charge_cents > 0) {
    const creds = await credentialsFor(tx, sub.accountId, args.adapter);
    let result;
    try {
      result = await args.adapter.chargeRecurring!(creds, {
        accountId: sub.accountId,
        subscriptionId: sub.id,
        idempotencyKey: `plan_switch:${args.attemptId}`,
        amountCents: terms.charge_cents,
        currency: args.currency,
        paymentToken: sub.paymentToken,
        periodStart: newPeriodStart ?? now,
        periodEnd: nextChargeAt,
      });
    } catch (error) {
      if (error instanceof PaymentAdapterError && error.kind === "unavailable")
        throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
      if (error instanceof PaymentAdapterError) result = { status: "failed" as const, reason: error.message };
      else throw error;
    }
    if (result.status === "failed")
      throw unprocessable(
        "payment",
        result.reason,
        `The charge for the switch was declined: ${result.reason} Nothing changed; update your payment method and try again.`,
      );
    // The payment belongs to the switch's attempt (not the checkout's: that one is a trial's
    // authorization when the subscription began with a trial, never invoiced).
    await recordCharge(tx, {
      subscription: { ...sub, attemptId: args.attemptId },
      amountCents: terms.charge_cents,
      currency: args.currency,
      externalPaymentId: result.externalPaymentId,
      periodStart: newPeriodStart ?? now,
      periodEnd: nextChargeAt,
      source: "plan_switch",
      details: { ...result.details, plan_switch_attempt_id: args.attemptId },
      now,
    });
  }
  await switchTo(tx, {
    subscriptionId: sub.id,
    target: args.target,
    priceCents: args.priceCents,
    paidCents: args.priceCents,
    from: now,
    newPeriod: false,
  });
  await tx.subscription.update({
    where: { id: sub.id },
    data: {
      creditCents: { increment: terms.carry_cents },
      ...(newPeriodStart ? { endTimestamp: nextChargeAt, nextPaymentDueDate: nextChargeAt } : {}),
    },
  });
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
}
