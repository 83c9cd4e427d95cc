/**
 * POST …/switch_plan (docs/subscriptions.md "Plan switching"): the switch a preview
 * (./plan-switch.ts) froze, claimed once. The payment is verified first, then one transaction
 * claims the attempt, locks and re-checks the subscription, records the payment and applies the
 * switch now or schedules it (./plan-switch-recurring.ts, ./plan-switch-scheduled.ts).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { cancelJob } from "../../jobs/queue";
import { verifyAttemptToken } from "../checkout/attempt-token";
import { PaymentAdapterError } from "../payments/adapter";
import { credentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { loadSubscriptionWire, notFoundSubscription } from "../subscribers/subscription-view";
import { scheduleAtGateway } from "./plan-switch-gateway";
import { targetPriceIn } from "./plan-switch-proration";
import { applyRecurringSwitchNow, SCHEDULED_WHY } from "./plan-switch-recurring";
import { scheduleSwitch, switchJobKey, switchTo } from "./plan-switch-scheduled";
import { assertSwitchable, TOKEN_FIELD, unprocessable, type SwitchTerms } from "./plan-switch-terms";

class AlreadyUsed extends Error {}

type Attempt = { id: string; externalReferenceId: string | null };
type VerifiedSwitchPayment = { externalPaymentId: string | null; externalOrderId: string | null; details?: unknown };

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
  const answer = async () => ({
    subscription: (await loadSubscriptionWire(db, { accountId, id: terms.subscription_id, now }))!,
    attempt_token: args.attemptToken,
    message:
      terms.mode === "now"
        ? "Subscription plan switched."
        : `The switch is scheduled for the end of the current period (${terms.apply_at}); ${SCHEDULED_WHY[terms.recurring?.mode === "scheduled" ? terms.recurring.reason : "proration_off"]}.`,
  });
  if (attempt.usedAt) return answer();
  if (attempt.expiresAt <= now) throw unprocessable(TOKEN_FIELD, "has expired", "This attempt token has expired.");
  await assertPriceAsPreviewed(db, accountId, terms);

  const verified =
    terms.charge_cents !== null && terms.charge_cents > 0 && !terms.recurring
      ? await verifySwitchPayment(db, { ...args, attempt, terms, chargeCents: terms.charge_cents })
      : null;
  try {
    await withTransaction(db, (tx) =>
      writeSwitch(tx, { accountId, now, paymentToken: args.paymentToken, attempt, terms, verified }),
    );
  } catch (error) {
    if (error instanceof AlreadyUsed) return answer();
    throw error;
  }
  return answer();
}

/** The payment, through the subscription's payment adapter (as checkout verifies one). */
async function verifySwitchPayment(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    paymentToken: string | null;
    extra: Record<string, unknown>;
    attempt: Attempt;
    terms: SwitchTerms;
    chargeCents: number;
  },
): Promise<VerifiedSwitchPayment> {
  const { accountId, memberId, attempt, terms } = args;
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
        amountCents: args.chargeCents,
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
  return v;
}

type SwitchWrite = {
  accountId: number;
  now: Date;
  paymentToken: string | null;
  attempt: Attempt;
  terms: SwitchTerms;
  verified: VerifiedSwitchPayment | null;
};

/** The one transaction of a switch: claim the attempt, lock and re-check the subscription, then apply or schedule. */
async function writeSwitch(tx: TransactionClient, w: SwitchWrite) {
  const { accountId, now, attempt, terms } = w;
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

  if (w.verified) await recordSwitchPayment(tx, w, { subscriptionId: sub.id, verified: w.verified });
  await applyOrSchedule(tx, w, { sub, target });
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
}

/** A paid one-time switch's payment (one gateway payment pays for one thing). */
async function recordSwitchPayment(
  tx: TransactionClient,
  w: SwitchWrite,
  args: { subscriptionId: number; verified: VerifiedSwitchPayment },
) {
  const { accountId, now, attempt, terms } = w;
  const { verified } = args;
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
      subscriptionId: args.subscriptionId,
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

type TargetPlan = NonNullable<Awaited<ReturnType<TransactionClient["subscriptionPlan"]["findFirst"]>>>;
type LockedSubscription = Awaited<ReturnType<TransactionClient["subscription"]["findUniqueOrThrow"]>>;

/** A recurring switch now (prorated), a one-time switch now (new period), or the switch scheduled. */
async function applyOrSchedule(
  tx: TransactionClient,
  w: SwitchWrite,
  args: { sub: LockedSubscription; target: TargetPlan },
) {
  const { accountId, now, attempt, terms } = w;
  const { sub, target } = args;
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
      paymentToken: w.paymentToken,
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
}
