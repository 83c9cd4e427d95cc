/**
 * Plan switching (interface-spec §4.3 `members/me/subscriptions/<id>/switch_plan[/preview]`;
 * docs/subscriptions.md "Plan switching"): a reader moves an active subscription to another plan
 * of its group. A preview then a switch, like checkout: the preview freezes the terms in a
 * subscription_attempts row and answers its attempt token; the switch claims it once
 * (./plan-switch-apply.ts).
 *
 * - switch_type must be what the prices make it (plan-switch-proration.ts classifySwitch): an
 *   "upgrade" to a plan cheaper per day is a 422. The target must have a price in the
 *   subscription's currency (422 otherwise), be enabled, of the same group, recurring like it.
 * - One-time plans, group with proration on (subscription_groups.proration_enabled, the default):
 *   applied now. The reader pays the prorated charge (target price − unused credit, floored at 0)
 *   through the subscription's payment adapter; the subscription takes the target plan and a new
 *   period from now.
 * - One-time plans, proration off: scheduled for the period end. The reader pays the target's
 *   full price now; at the end the job `subscription.switch_plan` gives the subscription the
 *   target plan for a new period from there.
 * - Recurring plans (./plan-switch-recurring.ts): with proration on and an adapter that charges a
 *   stored payment method, applied now: an upgrade pays the prorated difference through
 *   `chargeRecurring` at the confirm, a downgrade's difference becomes a credit balance taken off
 *   the next charges; on a gateway that prorates itself (Stripe), in its figures, through it.
 *   Otherwise (proration off, a free trial, …) scheduled for the next charge
 *   (chargeable_amount_cents null): the job changes the plan copy at the period end, so the next
 *   charge is the target's price, and a gateway that charges by itself is told at the confirm.
 * - The scheduled switch is stored on the subscription (scheduled_plan_id, scheduled_switch_at,
 *   scheduled_switch) and its job is keyed per subscription (`subscription.switch_plan:<id>`), so a
 *   second switch replaces the first and it is never queued twice (./plan-switch-scheduled.ts).
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { ATTEMPT_TTL_MS, signAttemptToken } from "../checkout/attempt-token";
import { PaymentAdapterError, type PaymentAdapter } from "../payments/adapter";
import { credentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { loadSubscriptionWire, notFoundSubscription } from "../subscribers/subscription-view";
import { gatewaySwitchTerms } from "./plan-switch-gateway";
import { classifySwitch, pricePerDay, proratedCharge, targetPriceIn, type SwitchType } from "./plan-switch-proration";
import { recurringSwitchTerms, switchExtras } from "./plan-switch-recurring";
import { assertSwitchable, unprocessable, type RecurringSwitchTerms, type SwitchTerms } from "./plan-switch-terms";

async function loadForSwitch(db: Db, args: { accountId: number; memberId: number; subscriptionId: number }) {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId, memberId: args.memberId, deletedAt: null },
    include: { group: { select: { prorationEnabled: true } } },
  });
  if (!sub) throw notFoundSubscription();
  return sub;
}

type SubForSwitchPreview = Awaited<ReturnType<typeof loadForSwitch>>;
type TargetPlan = NonNullable<Awaited<ReturnType<typeof findTarget>>>;
/** How a switch applies and what it costs: decided by the plans, the group's proration and the gateway. */
type SwitchPlan = {
  mode: SwitchTerms["mode"];
  applyAt: Date | null;
  charge: number | null;
  credit: number;
  recurring: RecurringSwitchTerms | undefined;
};

const findTarget = (db: Db, args: { accountId: number; targetPlanId: number; groupId: number | null }) =>
  db.subscriptionPlan.findFirst({
    where: {
      id: args.targetPlanId,
      accountId: args.accountId,
      groupId: args.groupId ?? -1,
      enabled: true,
      deletedAt: null,
    },
  });

/**
 * POST …/switch_plan/preview: the terms of switching to `targetPlanId`, frozen behind an attempt
 * token → {subscription, attempt_token, chargeable_amount_cents, external_reference_id, switch}.
 */
export async function previewPlanSwitch(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    subscriptionId: number;
    targetPlanId: number;
    switchType: SwitchType;
    now: Date;
  },
) {
  const { accountId, memberId, now } = args;
  const sub = await loadForSwitch(db, args);
  assertSwitchable(sub, now);
  const { target, price, actual } = await switchTarget(db, { ...args, sub });
  const currency = sub.planAmountCurrency;
  const adapter = paymentAdapterFor(sub.paymentType);
  const attemptId = randomUUID();
  const { mode, applyAt, charge, credit, recurring } = await planTheSwitch(db, {
    sub,
    target,
    price,
    adapter,
    attemptId,
    now,
  });
  // A one-time switch is paid in the gateway's form (an order now); a recurring one is charged to
  // the stored payment method at the confirm.
  const externalReferenceId =
    charge !== null && charge > 0 && !sub.recurring
      ? await prepareSwitchPayment(db, { accountId, memberId, sub, target, adapter, attemptId, charge })
      : null;
  const terms: SwitchTerms = {
    v: 2,
    kind: "plan_switch",
    member_id: memberId,
    subscription_id: sub.id,
    from_plan_id: sub.planId!,
    to_plan_id: target.id,
    switch_type: actual,
    mode,
    apply_at: applyAt?.toISOString() ?? null,
    currency,
    price_cents: price,
    credit_cents: credit,
    charge_cents: charge,
    payment_type: sub.paymentType,
    ...(recurring ? { recurring } : {}),
  };
  await db.subscriptionAttempt.create({
    data: {
      id: attemptId,
      accountId,
      memberId,
      terms: terms,
      paymentType: sub.paymentType,
      amountCents: charge ?? 0,
      currency,
      externalReferenceId,
      expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
      createdAt: now,
    },
  });
  return {
    subscription: (await loadSubscriptionWire(db, { accountId, id: sub.id, now }))!,
    attempt_token: signAttemptToken(attemptId),
    chargeable_amount_cents: charge,
    external_reference_id: externalReferenceId,
    switch: {
      subscription_plan_id: target.id,
      plan_name: target.title,
      switch_type: actual,
      applies: mode,
      applies_at: (applyAt ?? now).toISOString(),
      price_cents: price,
      credit_cents: credit,
      currency,
      ...switchExtras(sub, price, recurring),
    },
  };
}

/**
 * The target: another enabled plan of the group, recurring like the subscription, priced in its
 * currency, and the switch type the reader named is what the prices make it.
 */
async function switchTarget(
  db: Db,
  args: { accountId: number; targetPlanId: number; switchType: SwitchType; sub: SubForSwitchPreview },
): Promise<{ target: TargetPlan; price: number; actual: SwitchType }> {
  const { sub } = args;
  const target = await findTarget(db, { ...args, groupId: sub.groupId });
  if (!target || target.id === sub.planId)
    throw unprocessable("subscription_plan_id", "is not another plan of this subscription's group");
  if (target.recurring !== sub.recurring)
    throw unprocessable(
      "subscription_plan_id",
      target.recurring ? "is recurring" : "is not recurring",
      "A switch stays recurring or one-time: buy the other kind of plan instead.",
    );
  const currency = sub.planAmountCurrency;
  const price = targetPriceIn(target, currency);
  if (price === null)
    throw unprocessable("subscription_plan_id", `has no price in ${currency}, the subscription's currency`);
  const actual = classifySwitch(
    pricePerDay(sub.planAmountCents, sub.durationLength, sub.durationUnit),
    pricePerDay(price, target.durationLength, target.durationUnit),
  );
  if (actual !== args.switchType)
    throw unprocessable(
      "switch_type",
      `must be ${actual} for this plan`,
      `Switching to "${target.title}" is a ${actual}, not a ${args.switchType}.`,
    );
  return { target, price, actual };
}

/** Now or scheduled, the charge and the credit: recurring (./plan-switch-recurring.ts), prorated, or at the end. */
async function planTheSwitch(
  db: Db,
  args: {
    sub: SubForSwitchPreview;
    target: TargetPlan;
    price: number;
    adapter: PaymentAdapter | null;
    attemptId: string;
    now: Date;
  },
): Promise<SwitchPlan> {
  const { sub, target, price, adapter, attemptId, now } = args;
  let plan: SwitchPlan;
  if (sub.recurring) {
    const terms = recurringSwitchTerms({
      sub,
      prorationEnabled: sub.group?.prorationEnabled ?? true,
      adapter,
      priceCents: price,
      target: { length: target.durationLength, unit: target.durationUnit },
      now,
    });
    const recurring = await gatewaySwitchTerms(db, {
      terms,
      adapter,
      sub,
      target,
      attemptId,
      priceCents: price,
      currency: sub.planAmountCurrency,
      now,
    });
    plan =
      recurring.mode === "now"
        ? { mode: "now", applyAt: null, charge: recurring.charge_cents, credit: recurring.credit_cents, recurring }
        : {
            mode: recurring.mode,
            applyAt: recurring.apply_at ? new Date(recurring.apply_at) : null,
            charge: null,
            credit: 0,
            recurring,
          };
  } else if (sub.group?.prorationEnabled ?? true) {
    const p = proratedCharge({
      periodStart: sub.startTimestamp,
      periodEnd: sub.endTimestamp,
      now,
      paidCents: sub.paymentAmountCents,
      targetPriceCents: price,
    });
    plan = { mode: "now", applyAt: null, charge: p.chargeCents, credit: p.creditCents, recurring: undefined };
  } else {
    plan = { mode: "scheduled", applyAt: sub.endTimestamp, charge: price, credit: 0, recurring: undefined };
  }
  if (plan.mode === "scheduled" && plan.applyAt === null)
    throw unprocessable(
      "subscription",
      "never ends",
      "This subscription never ends: a switch cannot wait for its end.",
    );
  return plan;
}

/** A paid one-time switch: the gateway's order for the charge; answers its reference. */
async function prepareSwitchPayment(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    sub: SubForSwitchPreview;
    target: TargetPlan;
    adapter: PaymentAdapter | null;
    attemptId: string;
    charge: number;
  },
): Promise<string | null> {
  const { accountId, memberId, sub, target, adapter, attemptId, charge } = args;
  if (!adapter || !adapter.takesPayment || adapter.callers === "server")
    throw unprocessable(
      "subscription",
      `was paid with ${sub.paymentType}`,
      `This switch costs ${charge} cents, and ${sub.paymentType} cannot take a reader's payment.`,
    );
  const creds = await credentialsFor(db, accountId, adapter);
  try {
    const prepared = await adapter.preparePayment(creds, {
      accountId,
      attemptId,
      amountCents: charge,
      currency: sub.planAmountCurrency,
      recurring: false,
      plan: { id: target.id, title: target.title, metadata: target.metadata as Record<string, unknown> },
      subscriber: { id: memberId, name: null, email: null, phone: null },
    });
    return prepared.externalReferenceId;
  } catch (error) {
    if (error instanceof PaymentAdapterError) {
      if (error.kind === "unavailable")
        throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
      throw unprocessable("payment", error.message, `The payment was refused: ${error.message}`);
    }
    throw error;
  }
}
