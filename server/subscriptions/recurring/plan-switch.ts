/**
 * Plan switching (interface-spec §4.3 `members/me/subscriptions/<id>/switch_plan[/preview]`;
 * docs/subscriptions.md "Plan switching"): a reader moves an active subscription to another plan
 * of its group. A preview then a switch, like checkout: the preview freezes the terms in a
 * subscription_attempts row and answers its attempt token; the switch claims it once.
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

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { cancelJob } from "../../jobs/queue";
import { ATTEMPT_TTL_MS, signAttemptToken, verifyAttemptToken } from "../checkout/attempt-token";
import { PaymentAdapterError } from "../payments/adapter";
import { credentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { loadSubscriptionWire, notFoundSubscription } from "../subscribers/subscription-view";
import { gatewaySwitchTerms, scheduleAtGateway } from "./plan-switch-gateway";
import { classifySwitch, pricePerDay, proratedCharge, targetPriceIn, type SwitchType } from "./plan-switch-proration";
import { applyRecurringSwitchNow, recurringSwitchTerms, SCHEDULED_WHY, switchExtras } from "./plan-switch-recurring";
import { scheduleSwitch, switchJobKey, switchTo } from "./plan-switch-scheduled";
import type { RecurringSwitchTerms } from "./plan-switch-terms";

const unprocessable = (field: string, issue: string, message?: string) =>
  new AppError("UNPROCESSABLE", message ?? `${field} ${issue}.`, { details: [{ field, issue }] });

/** What a switch preview freezes (subscription_attempts.terms). */
type SwitchTerms = {
  v: 2;
  kind: "plan_switch";
  member_id: number;
  subscription_id: number;
  from_plan_id: number;
  to_plan_id: number;
  switch_type: SwitchType;
  mode: "now" | "scheduled";
  apply_at: string | null;
  currency: string;
  price_cents: number;
  credit_cents: number;
  /** What the reader pays at the switch; null for a scheduled recurring switch (the next charge pays). */
  charge_cents: number | null;
  payment_type: string;
  /** A recurring subscription's switch: applied now (prorated) or scheduled, and why. */
  recurring?: RecurringSwitchTerms;
};

const TOKEN_FIELD = "attempt_token";

async function loadForSwitch(db: Db, args: { accountId: number; memberId: number; subscriptionId: number }) {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId, memberId: args.memberId, deletedAt: null },
    include: { group: { select: { prorationEnabled: true } } },
  });
  if (!sub) throw notFoundSubscription();
  return sub;
}

/** Whether the subscription may switch now (422 naming why not). */
function assertSwitchable(
  sub: {
    status: string;
    planId: number | null;
    subscriptionType: string;
    endTimestamp: Date | null;
    startTimestamp: Date;
  },
  now: Date,
) {
  if (sub.planId === null || sub.subscriptionType === "DYNAMIC_ASSET" || sub.subscriptionType === "CAMPAIGN")
    throw unprocessable("subscription", "has no plans to switch to", "Only plan subscriptions switch plans.");
  if (sub.status !== "ACTIVE" || (sub.endTimestamp !== null && sub.endTimestamp <= now))
    throw unprocessable(
      "subscription",
      "is not active",
      "Only an active subscription switches plans (a cancelled, pending or ended one does not).",
    );
}

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
  const target = await db.subscriptionPlan.findFirst({
    where: { id: args.targetPlanId, accountId, groupId: sub.groupId ?? -1, enabled: true, deletedAt: null },
  });
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

  let mode: SwitchTerms["mode"];
  let applyAt: Date | null = null;
  let charge: number | null;
  let credit = 0;
  const adapter = paymentAdapterFor(sub.paymentType);
  const attemptId = randomUUID();
  let recurring: RecurringSwitchTerms | undefined;
  if (sub.recurring) {
    const terms = recurringSwitchTerms({
      sub,
      prorationEnabled: sub.group?.prorationEnabled ?? true,
      adapter,
      priceCents: price,
      target: { length: target.durationLength, unit: target.durationUnit },
      now,
    });
    recurring = await gatewaySwitchTerms(db, {
      terms,
      adapter,
      sub,
      target,
      attemptId,
      priceCents: price,
      currency,
      now,
    });
    mode = recurring.mode;
    if (recurring.mode === "now") {
      credit = recurring.credit_cents;
      charge = recurring.charge_cents;
    } else {
      applyAt = recurring.apply_at ? new Date(recurring.apply_at) : null;
      charge = null;
    }
  } else if (sub.group?.prorationEnabled ?? true) {
    mode = "now";
    const p = proratedCharge({
      periodStart: sub.startTimestamp,
      periodEnd: sub.endTimestamp,
      now,
      paidCents: sub.paymentAmountCents,
      targetPriceCents: price,
    });
    credit = p.creditCents;
    charge = p.chargeCents;
  } else {
    mode = "scheduled";
    applyAt = sub.endTimestamp;
    charge = price;
  }
  if (mode === "scheduled" && applyAt === null)
    throw unprocessable(
      "subscription",
      "never ends",
      "This subscription never ends: a switch cannot wait for its end.",
    );

  let externalReferenceId: string | null = null;
  // A one-time switch is paid in the gateway's form (an order now); a recurring one is charged to
  // the stored payment method at the confirm.
  if (charge !== null && charge > 0 && !sub.recurring) {
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
        currency,
        recurring: false,
        plan: { id: target.id, title: target.title, metadata: target.metadata as Record<string, unknown> },
        subscriber: { id: memberId, name: null, email: null, phone: null },
      });
      externalReferenceId = prepared.externalReferenceId;
    } catch (error) {
      if (error instanceof PaymentAdapterError) {
        if (error.kind === "unavailable")
          throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
        throw unprocessable("payment", error.message, `The payment was refused: ${error.message}`);
      }
      throw error;
    }
  }
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

class AlreadyUsed extends Error {}

/**
 * The preview is honoured as shown or not at all: when the target plan's price changed (or the
 * plan went) since the preview, the switch is refused (409) before any payment is verified, and
 * the reader previews again. Never a switch at a price the reader was not shown.
 */
async function assertPriceAsPreviewed(db: Db, accountId: number, terms: SwitchTerms) {
  const target = await db.subscriptionPlan.findFirst({
    where: { id: terms.to_plan_id, accountId, enabled: true, deletedAt: null },
  });
  const price = target ? targetPriceIn(target, terms.currency) : null;
  if (price === terms.price_cents) return;
  throw new AppError(
    "CONFLICT",
    target
      ? `The price of "${target.title}" changed since your preview; nothing was charged. Preview the change again to see the new price.`
      : "The plan of your preview is no longer offered; nothing was charged.",
    { details: [{ field: TOKEN_FIELD, issue: "the plan's price changed since the preview" }] },
  );
}

/**
 * POST …/switch_plan: claim the preview's attempt and switch (now) or schedule the switch →
 * {subscription, attempt_token, message}. The same token again answers the subscription as it is.
 */
export async function applyPlanSwitch(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    subscriptionId: number;
    attemptToken: string;
    paymentToken: string | null;
    extra: Record<string, unknown>;
    now: Date;
  },
) {
  const { accountId, memberId, now } = args;
  const attemptId = verifyAttemptToken(args.attemptToken);
  const attempt = attemptId ? await db.subscriptionAttempt.findFirst({ where: { id: attemptId, accountId } }) : null;
  const terms = attempt?.terms as SwitchTerms | undefined;
  if (
    !attempt ||
    !terms ||
    terms.kind !== "plan_switch" ||
    terms.member_id !== memberId ||
    terms.subscription_id !== args.subscriptionId
  )
    throw unprocessable(TOKEN_FIELD, "is not a plan switch preview of this subscription");
  const answer = async (message: string) => ({
    subscription: (await loadSubscriptionWire(db, { accountId, id: terms.subscription_id, now }))!,
    attempt_token: args.attemptToken,
    message,
  });
  const messageOf = () =>
    terms.mode === "now"
      ? "Subscription plan switched."
      : `The switch is scheduled for the end of the current period (${terms.apply_at}); ${SCHEDULED_WHY[terms.recurring?.mode === "scheduled" ? terms.recurring.reason : "proration_off"]}.`;
  if (attempt.usedAt) return answer(messageOf());
  if (attempt.expiresAt <= now) throw unprocessable(TOKEN_FIELD, "has expired", "This attempt token has expired.");
  await assertPriceAsPreviewed(db, accountId, terms);

  // The payment, through the subscription's payment adapter (as checkout verifies one).
  let verified: { externalPaymentId: string | null; externalOrderId: string | null; details?: unknown } | null = null;
  if (terms.charge_cents !== null && terms.charge_cents > 0 && !terms.recurring) {
    if (!args.paymentToken) throw unprocessable("payment_token", "is required: this switch is paid");
    const adapter = paymentAdapterFor(terms.payment_type);
    if (!adapter) throw unprocessable("payment_token", "cannot be verified: the payment type is gone");
    const creds = await credentialsFor(db, accountId, adapter);
    const v = await adapter
      .verifyPayment(
        creds,
        {
          accountId,
          attemptId: attempt.id,
          amountCents: terms.charge_cents,
          currency: terms.currency,
          recurring: false,
          plan: { id: terms.to_plan_id, title: "" },
          subscriber: { id: memberId, name: null, email: null, phone: null },
        },
        { paymentToken: args.paymentToken, externalReferenceId: attempt.externalReferenceId, extra: args.extra },
      )
      .catch((error: unknown) => {
        if (error instanceof PaymentAdapterError && error.kind === "unavailable")
          throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
        throw error;
      });
    if (v.status !== "captured")
      throw unprocessable(
        "payment_token",
        v.status === "failed" ? (v.reason ?? "is not a completed payment") : "is not captured yet",
        `The payment was not accepted${v.reason ? `: ${v.reason}` : "."}`,
      );
    verified = v;
  }

  try {
    await withTransaction(db, async (tx) => {
      const claimed = await tx.subscriptionAttempt.updateMany({
        where: { id: attempt.id, accountId, usedAt: null },
        data: { usedAt: now },
      });
      if (claimed.count !== 1) throw new AlreadyUsed();
      const locked = await tx.$queryRaw<{ id: number }[]>`
        SELECT id FROM subscriptions WHERE id = ${terms.subscription_id} AND account_id = ${accountId} FOR UPDATE`;
      if (!locked.length) throw notFoundSubscription();
      const sub = await tx.subscription.findUniqueOrThrow({ where: { id: terms.subscription_id } });
      assertSwitchable(sub, now);
      if (sub.planId !== terms.from_plan_id)
        throw unprocessable("subscription", "has changed plan since the preview", "Preview the switch again.");
      const target = await tx.subscriptionPlan.findFirst({ where: { id: terms.to_plan_id, deletedAt: null } });
      if (!target) throw unprocessable("subscription_plan_id", "is no longer a plan");

      if (verified) {
        if (verified.externalPaymentId) {
          const paid = await tx.payment.findFirst({
            where: { accountId, paymentType: terms.payment_type, externalPaymentId: verified.externalPaymentId },
            select: { id: true },
          });
          if (paid) throw unprocessable("payment_token", "has already paid for something else");
        }
        await tx.payment.create({
          data: {
            accountId,
            subscriptionId: sub.id,
            attemptId: attempt.id,
            paymentType: terms.payment_type,
            externalPaymentId: verified.externalPaymentId,
            externalOrderId: verified.externalOrderId ?? attempt.externalReferenceId,
            amountCents: terms.charge_cents!,
            currency: terms.currency,
            status: "CAPTURED",
            details: verified.details ?? {},
            createdAt: now,
          },
        });
      }

      if (terms.recurring?.mode === "now") {
        const adapter = paymentAdapterFor(terms.payment_type);
        if (!adapter) throw unprocessable("subscription", "cannot be charged: the payment type is gone");
        await applyRecurringSwitchNow(tx, {
          sub,
          terms: terms.recurring,
          attemptId: attempt.id,
          adapter,
          target,
          priceCents: terms.price_cents,
          currency: terms.currency,
          now,
        });
        await cancelJob(tx, { key: switchJobKey(sub.id), now });
      } else if (terms.mode === "now") {
        await switchTo(tx, {
          subscriptionId: sub.id,
          target,
          priceCents: terms.price_cents,
          paidCents: terms.charge_cents ?? 0,
          from: now,
          newPeriod: true,
          paymentToken: args.paymentToken,
        });
        await cancelJob(tx, { key: switchJobKey(sub.id), now });
      } else {
        if (terms.recurring?.mode === "scheduled" && terms.recurring.gateway)
          await scheduleAtGateway(tx, {
            sub,
            adapter: paymentAdapterFor(terms.payment_type),
            target,
            attemptId: attempt.id,
            priceCents: terms.price_cents,
            currency: terms.currency,
          });
        await scheduleSwitch(tx, {
          subscriptionId: sub.id,
          accountId,
          targetPlanId: target.id,
          at: new Date(terms.apply_at!),
          frozen: {
            switch_type: terms.switch_type,
            price_cents: terms.price_cents,
            currency: terms.currency,
            charge_cents: terms.charge_cents,
            attempt_id: attempt.id,
          },
          now,
        });
      }
      await recordAudit(tx, {
        actor: systemActor(accountId, "client_api"),
        action: terms.mode === "now" ? "subscription.switch_plan" : "subscription.schedule_switch",
        targetType: "subscription",
        targetId: sub.id,
        metadata: {
          from_plan_id: terms.from_plan_id,
          to_plan_id: terms.to_plan_id,
          switch_type: terms.switch_type,
          charge_cents: terms.charge_cents,
          credit_cents: terms.credit_cents,
          currency: terms.currency,
          applies_at: terms.apply_at ?? now.toISOString(),
        },
        now,
      });
    });
  } catch (error) {
    if (error instanceof AlreadyUsed) return answer(messageOf());
    throw error;
  }
  return answer(messageOf());
}
