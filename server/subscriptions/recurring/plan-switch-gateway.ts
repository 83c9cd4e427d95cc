/**
 * Plan switches of subscriptions a gateway charges by itself (stripe_recurring,
 * razorpay_recurring; docs/subscriptions.md "Plan switching"): the gateway must charge the new
 * plan too, so the switch is made there as well, through the adapter's plan-change methods
 * (../payments/adapter.ts GatewayPlanChanges), before Masthead changes anything.
 *
 * - Preview: a switch that waits for the next charge is checked with the adapter
 *   (planChangeRefusal: 422 when the gateway cannot make it as Masthead means it); a switch
 *   applied now through the gateway's own proration (Stripe) shows the gateway's figures, quoted at
 *   a proration instant frozen in the attempt (`gateway.proration_date`). A quote that is a credit
 *   (the gateway would keep the difference as a balance of its own, which Masthead cannot follow)
 *   makes the switch wait for the next charge instead (`gateway_credit`).
 * - Confirm, in the switch's transaction (the attempt claimed, the subscription's row locked):
 *   the gateway's subscription moves to the new plan, from its next cycle or now, charged the amount
 *   previewed (the adapter refuses another amount). Declined or refused: 422, unreachable: 503,
 *   and the transaction (the claim included) rolls back, so Masthead is unchanged. Every gateway
 *   call is idempotent on the attempt: a repeated confirm gets the gateway's first answer. The
 *   charge is recorded like other recurring charges (one payment row per gateway payment id, its
 *   invoice), so refunds and reports see it, and the gateway's own webhook for it finds it recorded.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Subscription } from "../../generated/prisma/client";
import {
  PaymentAdapterError,
  type GatewayPlanChange,
  type GatewayPlanChangeTiming,
  type PaymentAdapter,
} from "../payments/adapter";
import { gatewaySubscriptionOf } from "../payments/billing-source";
import { credentialsFor } from "../payments/credentials";
import { recordCharge } from "./charges";
import { gatewayProrates, type RecurringSwitchTerms } from "./plan-switch-terms";

type TargetPlan = {
  id: number;
  title: string;
  metadata: unknown;
  durationLength: number;
  durationUnit: Subscription["durationUnit"];
};

type SubForGateway = Pick<
  Subscription,
  | "id"
  | "accountId"
  | "attemptId"
  | "gatewaySubscriptionId"
  | "durationLength"
  | "durationUnit"
  | "nextPaymentDueDate"
  | "endTimestamp"
>;

const unprocessable = (field: string, issue: string, message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue }] });

const unreachable = () => new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");

/** The adapter's error as the reader's answer: 503 unreachable, else 422 naming the gateway's reason. */
function gatewayError(error: unknown, field: string): never {
  if (!(error instanceof PaymentAdapterError)) throw error;
  if (error.kind === "unavailable") throw unreachable();
  throw unprocessable(
    field,
    error.message,
    `The payment gateway refused the switch: ${error.message} Nothing changed.`,
  );
}

/** Whether the adapter's gateway charges by itself and moves a subscription to another plan (told at the confirm). */
const changesPlans = (adapter: PaymentAdapter | null): adapter is PaymentAdapter =>
  adapter?.chargeRecurring === undefined && adapter?.changePlan !== undefined;

/** The gateway subscription of `sub` and the target plan, as the adapter takes them. */
async function changeOf(
  db: Db | TransactionClient,
  args: { sub: SubForGateway; target: TargetPlan; attemptId: string; priceCents: number; currency: string },
): Promise<GatewayPlanChange> {
  const { sub, target } = args;
  const checkout = sub.attemptId
    ? await db.subscriptionAttempt.findUnique({ where: { id: sub.attemptId }, select: { externalReferenceId: true } })
    : null;
  const metadata =
    target.metadata && typeof target.metadata === "object" ? (target.metadata as Record<string, unknown>) : null;
  return {
    accountId: sub.accountId,
    subscriptionId: sub.id,
    attemptId: args.attemptId,
    gatewayReference: gatewaySubscriptionOf({ attempt: checkout, gatewaySubscriptionId: sub.gatewaySubscriptionId }),
    currency: args.currency,
    plan: { id: target.id, title: target.title, metadata },
    priceCents: args.priceCents,
    period: { length: target.durationLength, unit: target.durationUnit },
    fromPeriod: { length: sub.durationLength, unit: sub.durationUnit },
    periodEnd: sub.nextPaymentDueDate ?? sub.endTimestamp,
  };
}

/**
 * A recurring switch's preview terms (plan-switch-recurring.ts recurringSwitchTerms) completed for
 * a gateway that charges by itself: checked with it, and, applied now, in its own figures.
 */
export async function gatewaySwitchTerms(
  db: Db,
  args: {
    terms: RecurringSwitchTerms;
    adapter: PaymentAdapter | null;
    sub: SubForGateway;
    target: TargetPlan;
    attemptId: string;
    priceCents: number;
    currency: string;
    now: Date;
  },
): Promise<RecurringSwitchTerms> {
  const { terms, adapter } = args;
  if (!changesPlans(adapter)) return terms;
  const change = await changeOf(db, args);
  const refuse = (when: GatewayPlanChangeTiming["when"]) => {
    const why = adapter.planChangeRefusal?.(change, when) ?? null;
    if (why) throw unprocessable("subscription_plan_id", why, `This switch cannot be made: ${why}`);
  };
  const waits = (reason: Extract<RecurringSwitchTerms, { mode: "scheduled" }>["reason"]): RecurringSwitchTerms => {
    if (!adapter.planChangeTimings?.includes("next_period"))
      throw unprocessable(
        "subscription_plan_id",
        "the payment gateway cannot wait for the next charge",
        "The payment gateway cannot change this subscription's plan at its next charge.",
      );
    refuse("next_period");
    const applyAt = (args.sub.nextPaymentDueDate ?? args.sub.endTimestamp)?.toISOString() ?? null;
    return { mode: "scheduled", apply_at: applyAt, reason, gateway: "next_period" };
  };
  if (terms.mode === "scheduled") return waits(terms.reason);
  if (!gatewayProrates(adapter)) return terms;
  refuse("now");
  const prorationDate = Math.floor(args.now.getTime() / 1000);
  let quote;
  try {
    quote = await adapter.quotePlanChange!(
      await credentialsFor(db, args.sub.accountId, adapter),
      change,
      prorationDate,
    );
  } catch (error) {
    return gatewayError(error, "subscription_plan_id");
  }
  if (quote.amountCents < 0) return waits("gateway_credit");
  return {
    mode: "now",
    gateway: { proration_date: prorationDate },
    period_end: terms.period_end,
    credit_cents: quote.creditCents,
    rest_cents: quote.restCents,
    charge_cents: quote.amountCents,
    carry_cents: 0,
    resets_cycle: quote.resetsCycle,
    next_charge_at: (quote.nextChargeAt ?? new Date(terms.next_charge_at)).toISOString(),
  };
}

/**
 * Confirm, a switch applied now through the gateway's proration: the gateway charges the amount
 * previewed and changes its subscription, and the charge is recorded (a declined or different
 * charge: 422, nothing changed). Answers when the gateway charges next.
 */
export async function switchAtGatewayNow(
  tx: TransactionClient,
  args: {
    sub: Subscription;
    terms: Extract<RecurringSwitchTerms, { mode: "now" }> & { gateway: { proration_date: number } };
    attemptId: string;
    adapter: PaymentAdapter;
    target: TargetPlan;
    priceCents: number;
    currency: string;
    now: Date;
  },
): Promise<{ nextChargeAt: Date | null }> {
  const { sub, terms, adapter } = args;
  if (!adapter.changePlan)
    throw unprocessable("subscription", "cannot be switched", "The payment gateway cannot switch plans.");
  const change = await changeOf(tx, args);
  let result;
  try {
    result = await adapter.changePlan(await credentialsFor(tx, sub.accountId, adapter), change, {
      when: "now",
      prorationDate: terms.gateway.proration_date,
      expectedCents: terms.charge_cents,
    });
  } catch (error) {
    return gatewayError(error, "payment");
  }
  if (result.status === "failed")
    throw unprocessable(
      "payment",
      result.reason,
      `The charge for the switch was not made: ${result.reason} Nothing changed; update your payment method and preview the switch again.`,
    );
  const charged = result.charge?.amountCents ?? 0;
  if (charged !== terms.charge_cents)
    throw unprocessable(
      "payment",
      "the gateway charged another amount than previewed",
      `The payment gateway charged ${charged} instead of the ${terms.charge_cents} previewed; your plan was not changed.`,
    );
  const nextChargeAt = result.nextChargeAt ?? new Date(terms.next_charge_at);
  if (result.charge)
    // The payment belongs to the switch's attempt; the gateway subscription is its order, as for
    // the gateway's own renewal charges (recurring-events.ts finds it by either).
    await recordCharge(tx, {
      subscription: { ...sub, attemptId: args.attemptId },
      amountCents: result.charge.amountCents,
      currency: args.currency,
      externalPaymentId: result.charge.externalPaymentId,
      externalOrderId: change.gatewayReference,
      periodStart: args.now,
      periodEnd: nextChargeAt,
      source: "plan_switch",
      details: { ...result.charge.details, plan_switch_attempt_id: args.attemptId },
      now: args.now,
    });
  return { nextChargeAt };
}

/**
 * Confirm, a switch that waits for the next charge on a gateway that charges by itself: the
 * gateway's subscription moves to the new plan from its next cycle, so its next charge is the new
 * price (refused: 422, unreachable: 503, and nothing changes).
 */
export async function scheduleAtGateway(
  tx: TransactionClient,
  args: {
    sub: SubForGateway;
    adapter: PaymentAdapter | null;
    target: TargetPlan;
    attemptId: string;
    priceCents: number;
    currency: string;
  },
) {
  const { adapter } = args;
  if (!changesPlans(adapter))
    throw unprocessable("subscription", "cannot be switched", "The payment gateway can no longer switch plans.");
  const change = await changeOf(tx, args);
  let result;
  try {
    result = await adapter.changePlan!(await credentialsFor(tx, args.sub.accountId, adapter), change, {
      when: "next_period",
    });
  } catch (error) {
    return gatewayError(error, "subscription_plan_id");
  }
  if (result.status === "failed")
    throw unprocessable(
      "subscription_plan_id",
      result.reason,
      `The payment gateway refused the switch: ${result.reason}`,
    );
}
