/**
 * The subscription lifecycle (docs/subscriptions.md "Lifecycle"): what happens to a
 * subscription as time passes, run as background jobs on the job engine (server/jobs).
 *
 * - "subscription.lifecycle" (one job per subscription and due time, key
 *   `subscription.lifecycle:<id>@<due ISO>`, so a step is never queued twice): locks the
 *   subscription, rechecks its state, runs every step due by the clock (./lifecycle-steps.ts:
 *   reminder, charge, grace period, retries of a failed charge (./dunning.ts), expiry) with its
 *   webhook events, and queues the next step, all
 *   in the job's transaction: a process that dies mid-step rolls it back and the job runs again,
 *   so each step happens exactly once.
 * - "subscription.lifecycle_sweep" (every 5 minutes): queues the step of every subscription that
 *   is due and has none pending (subscriptions checkout created, or whose job failed for good).
 *
 * Every captured recurring charge becomes a Payment row through `recordCharge` (./charges.ts) only.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../../env.js";
import type { Db, TransactionClient } from "../../db/client";
import type { Subscription } from "../../generated/prisma/client";
import { readerMail, renderSimpleMail } from "../../i18n/reader-mail";
import { defineJob, defineSweepJob } from "../../jobs/define";
import { enqueueJob, enqueueJobs } from "../../jobs/queue";
import { log } from "../../log";
import { queueEmail } from "../../mail/outbox";
import { PaymentAdapterError, type RecurringChargeResult } from "../payments/adapter";
import { billedElsewhere, chargesOnRequest, hearingFrom, type Hearing } from "../payments/billing-source";
import { gatewayCredentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { addDuration } from "../subscribers/subscription-state";
import { emitSubscriptionEvent } from "../subscribers/subscription-view";
import { recordCharge } from "./charges";
import { beginDunning, endDunning, openDunningEpisode, recordFailedRetry } from "./dunning";
import { DAY_MS, nextLifecycleStep, RENEWAL_REMINDER_DAYS, type LifecycleStep } from "./lifecycle-steps";
import { applyCredit } from "./plan-switch-proration";
import { applyDueScheduledSwitch } from "./plan-switch-scheduled";

/** Steps run in one job at most (a subscription years behind catches up over several runs). */
const MAX_STEPS_PER_RUN = 48;

/**
 * The subscription's next step. One billed elsewhere (payments/billing-source.ts) ends quietly at
 * its end: nothing would ever tell Masthead of its renewals.
 */
async function stepOf(sub: Subscription, now: Date, hears: Hearing): Promise<LifecycleStep | null> {
  const adapter = paymentAdapterFor(sub.paymentType);
  return nextLifecycleStep(sub, now, {
    chargeable: chargesOnRequest(adapter),
    billedElsewhere: await billedElsewhere(sub, hears),
    gatewayWordWithinMs: adapter?.renewalReportedWithinMs,
  });
}

export function lifecycleJobKey(subscriptionId: number, at: Date): string {
  return `subscription.lifecycle:${subscriptionId}@${at.toISOString()}`;
}

/**
 * Queue the subscription's next lifecycle step, if it has one, in `db`'s transaction. Idempotent
 * (keyed by subscription and due time). Call it after any change to a subscription's timing
 * (checkout, renewal, cancel); the sweep finds the ones nobody queued.
 */
export async function scheduleSubscriptionLifecycle(
  db: Db,
  args: { subscriptionId: number; now: Date },
): Promise<LifecycleStep | null> {
  const sub = await db.subscription.findUnique({ where: { id: args.subscriptionId } });
  if (!sub) return null;
  const step = await stepOf(sub, args.now, hearingFrom(db));
  if (step) await enqueueStep(db, sub, step, args.now);
  return step;
}

async function enqueueStep(db: Db, sub: { id: number; accountId: number }, step: LifecycleStep, now: Date) {
  await enqueueJob(
    db,
    subscriptionLifecycleJob,
    { subscriptionId: sub.id },
    { key: lifecycleJobKey(sub.id, step.at), runAt: step.at, accountId: sub.accountId, now },
  );
}

/**
 * A subscription in grace got a new payment method (the self-service page): retry the unpaid
 * period's charge now rather than at the schedule's next day (a retry the schedule counts), in
 * `tx`, under the row lock. Does nothing outside a grace period that a charge can end (no open
 * failure episode, cancelled, or nobody to charge). Returns whether a retry was queued.
 */
export async function retryChargeSoon(
  tx: TransactionClient,
  args: { subscriptionId: number; now: Date },
): Promise<boolean> {
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${args.subscriptionId} FOR UPDATE`;
  const sub = await tx.subscription.findUnique({ where: { id: args.subscriptionId } });
  if (!sub || sub.status !== "ACTIVE" || sub.cancelledAt || !sub.recurring || !sub.graceEndsAt) return false;
  if (sub.graceEndsAt <= args.now || !chargesOnRequest(paymentAdapterFor(sub.paymentType))) return false;
  if (!(await openDunningEpisode(tx, sub.id))) return false;
  await tx.subscription.update({ where: { id: sub.id }, data: { chargeRetryAt: args.now } });
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now: args.now });
  return true;
}

// ─── Steps ───────────────────────────────────────────────────────────────────────────────────

type StepContext = { tx: TransactionClient; now: Date; appUrl: string };

async function emit(ctx: StepContext, sub: Subscription, name: Parameters<typeof emitSubscriptionEvent>[1]["name"]) {
  await emitSubscriptionEvent(ctx.tx, { accountId: sub.accountId, name, subscriptionId: sub.id, occurredAt: ctx.now });
}

async function remind(ctx: StepContext, sub: Subscription): Promise<void> {
  await ctx.tx.subscription.update({ where: { id: sub.id }, data: { renewalReminderSentAt: ctx.now } });
  const member = await ctx.tx.member.findUnique({
    where: { id: sub.memberId },
    select: { email: true, communicationEmail: true, name: true },
  });
  const to = member?.communicationEmail ?? member?.email ?? null;
  if (!to) return;
  const target = sub.recurring ? (sub.nextPaymentDueDate ?? sub.endTimestamp) : sub.endTimestamp;
  if (!target) return;
  // The reader's locale, the account's zone named (a mail does not know the reader's zone).
  const mail = await readerMail(ctx.tx, sub.accountId, sub.memberId);
  const { t } = mail;
  const values = {
    plan: sub.planName,
    date: mail.dateTime(target),
    amount: mail.money(sub.paymentAmountCents, sub.paymentAmountCurrency),
  };
  await queueEmail(ctx.tx, {
    accountId: sub.accountId,
    to,
    kind: "subscription.renewal_reminder",
    now: ctx.now,
    ...renderSimpleMail(mail, {
      subject: t(sub.recurring ? "reminderRenewsSubject" : "reminderEndsSubject", values),
      name: member?.name,
      blocks: [{ p: t(sub.recurring ? "reminderRenewsBody" : "reminderEndsBody", values) }],
    }),
  });
}

/**
 * The period went unpaid: the grace period (the plan's length) starts, with the plan's retries when
 * we charged it (`charged`), and the "update your card" e-mail once per episode (dunning.ts).
 */
async function enterGrace(
  ctx: StepContext,
  sub: Subscription,
  paidThrough: Date,
  reason: string,
  charged: boolean,
): Promise<void> {
  const { graceEndsAt, chargeRetryAt } = await beginDunning(ctx.tx, {
    sub,
    paidThrough,
    charged,
    reason,
    now: ctx.now,
    appUrl: ctx.appUrl,
  });
  log.info("subscription entered its grace period", {
    subscription: sub.id,
    reason,
    graceEndsAt: graceEndsAt.toISOString(),
    chargeRetryAt: chargeRetryAt?.toISOString() ?? null,
  });
  if (charged) await emit(ctx, sub, "subscription.charge_failed");
  await emit(ctx, sub, "subscription.grace_period_entered");
}

/**
 * The period ended and its gateway charges periods itself: it reports the renewal a while later
 * (payments/adapter.ts renewalReportedWithinMs). The reader keeps reading until that word is due
 * and is told nothing; a charge ends the wait (recurring-events.ts), a failure starts the grace
 * period at once (dunning.ts), and silence starts it when the word was due.
 */
async function awaitGateway(ctx: StepContext, sub: Subscription): Promise<void> {
  const waitMs = paymentAdapterFor(sub.paymentType)?.renewalReportedWithinMs ?? 0;
  const due = new Date(sub.endTimestamp!.getTime() + waitMs);
  await ctx.tx.subscription.update({ where: { id: sub.id }, data: { graceEndsAt: due, gatewayWordDueAt: due } });
  log.info("subscription awaits its gateway's word on the ended period", {
    subscription: sub.id,
    until: due.toISOString(),
  });
}

async function expire(ctx: StepContext, sub: Subscription): Promise<void> {
  await ctx.tx.subscription.update({
    where: { id: sub.id },
    data: { status: "EXPIRED", nextPaymentDueDate: null, chargeRetryAt: null, gatewayWordDueAt: null },
  });
  // A grace period that ran out unpaid: the episode's revenue is lost.
  if (sub.graceEndsAt !== null) await endDunning(ctx.tx, { subscriptionId: sub.id, outcome: "LOST", now: ctx.now });
  await emit(ctx, sub, "subscription.expired");
}

/**
 * Charge the period due at next_payment_due_date. The adapter call happens inside the job's
 * transaction with an idempotency key of the period: a crash after the gateway charged and before
 * the commit repeats the call, and the gateway answers the same payment (recordCharge then finds
 * nothing new to write). An unreachable gateway throws: the job retries with backoff.
 */
async function charge(ctx: StepContext, sub: Subscription): Promise<void> {
  const due = sub.nextPaymentDueDate!;
  const result = await chargePeriod(ctx, sub, `sub:${sub.id}:${due.toISOString()}`);
  if (result.status === "failed") {
    const paidThrough = sub.endTimestamp && sub.endTimestamp < due ? sub.endTimestamp : due;
    await enterGrace(ctx, sub, paidThrough, result.reason, true);
    return;
  }
  await settlePeriod(ctx, sub, result);
}

/**
 * Retry the unpaid period's charge in the grace period (dunning.ts): retry N of the episode has
 * its own idempotency key `sub:<id>:<period start ISO>:retry:<N>` (a gateway answers a repeated key
 * with its first answer, so a retry cannot reuse the declined charge's). Captured: the period is
 * paid from its original due date, the grace period ends, the episode is recovered. Declined:
 * the next retry, or none (the grace period's end then expires the subscription).
 */
async function retryCharge(ctx: StepContext, sub: Subscription): Promise<void> {
  const episode = await openDunningEpisode(ctx.tx, sub.id);
  if (!episode) {
    await ctx.tx.subscription.update({ where: { id: sub.id }, data: { chargeRetryAt: null } });
    return;
  }
  const due = sub.nextPaymentDueDate!;
  const attempt = episode.retries + 1;
  const result = await chargePeriod(ctx, sub, `sub:${sub.id}:${due.toISOString()}:retry:${attempt}`);
  if (result.status === "failed") {
    const next = await recordFailedRetry(ctx.tx, { sub, episode, reason: result.reason });
    log.info("a retried charge was declined", {
      subscription: sub.id,
      attempt,
      reason: result.reason,
      nextRetryAt: next?.toISOString() ?? null,
    });
    await emit(ctx, sub, "subscription.charge_failed");
    return;
  }
  await settlePeriod(ctx, sub, result);
}

/** One charge of the period due at next_payment_due_date through the adapter. */
async function chargePeriod(
  ctx: StepContext,
  sub: Subscription,
  idempotencyKey: string,
): Promise<RecurringChargeResult> {
  const due = sub.nextPaymentDueDate!;
  const adapter = paymentAdapterFor(sub.paymentType)!;
  const creds = adapter.provider
    ? await gatewayCredentialsFor(ctx.tx, sub.accountId, adapter.provider, { includeDisabled: false })
    : null;
  const periodEnd = addDuration(due, sub.durationLength, sub.durationUnit);
  // A credit balance (a prorated downgrade, plan-switch-recurring.ts) lowers the charge; one it
  // covers whole asks the gateway for nothing.
  const { chargeCents, usedCents } = applyCredit(sub.paymentAmountCents, sub.creditCents);
  if (chargeCents === 0 && usedCents > 0)
    return { status: "captured", externalPaymentId: null, details: { paid_by_credit: true } };
  try {
    return await adapter.chargeRecurring!(creds, {
      accountId: sub.accountId,
      subscriptionId: sub.id,
      idempotencyKey,
      amountCents: chargeCents,
      currency: sub.paymentAmountCurrency,
      paymentToken: sub.paymentToken,
      periodStart: due,
      periodEnd,
    });
  } catch (error) {
    if (error instanceof PaymentAdapterError && error.kind !== "unavailable")
      return { status: "failed", reason: error.message };
    throw error;
  }
}

/** A captured charge of the period due at next_payment_due_date: record it, move the end, end any grace. */
async function settlePeriod(
  ctx: StepContext,
  sub: Subscription,
  result: Extract<RecurringChargeResult, { status: "captured" }>,
): Promise<void> {
  const due = sub.nextPaymentDueDate!;
  const periodEnd = addDuration(due, sub.durationLength, sub.durationUnit);
  const { chargeCents, usedCents } = applyCredit(sub.paymentAmountCents, sub.creditCents);
  // A renewal is not the checkout's payment: it carries no attempt (the checkout's attempt marks a
  // trial's authorization, which is never invoiced; trial-history.ts isTrialAuthorization).
  const payment = await recordCharge(ctx.tx, {
    subscription: { ...sub, attemptId: null },
    amountCents: chargeCents,
    creditAppliedCents: usedCents,
    currency: sub.paymentAmountCurrency,
    externalPaymentId: result.externalPaymentId,
    periodStart: due,
    periodEnd,
    source: "lifecycle",
    details: result.details,
    now: ctx.now,
  });
  const end =
    periodEnd === null || sub.endTimestamp === null
      ? null
      : new Date(Math.max(periodEnd.getTime(), sub.endTimestamp.getTime()));
  await ctx.tx.subscription.update({
    where: { id: sub.id },
    data: {
      endTimestamp: end,
      nextPaymentDueDate: end,
      graceEndsAt: null,
      chargeRetryAt: null,
      ...(usedCents > 0 ? { creditCents: { decrement: usedCents } } : {}),
    },
  });
  await emit(ctx, sub, "subscription.renewed");
  if (await endDunning(ctx.tx, { subscriptionId: sub.id, outcome: "RECOVERED", paymentId: payment?.id, now: ctx.now }))
    await emit(ctx, sub, "subscription.recovered");
}

/**
 * Run every lifecycle step of one subscription that is due at `now`, then queue the next one.
 * The caller's transaction must be the job's (or any that can roll everything back together).
 * Returns the steps run, in order.
 */
export async function advanceSubscription(
  tx: TransactionClient,
  args: { subscriptionId: number; now: Date; appUrl?: string },
): Promise<LifecycleStep[]> {
  const ctx: StepContext = { tx, now: args.now, appUrl: args.appUrl ?? getEnv().APP_URL };
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${args.subscriptionId} FOR UPDATE`;
  // A plan switch scheduled for the period end comes first: the charge is then the new plan's,
  // and a prepaid one-time switch starts its new period rather than expiring (plan-switch.ts).
  await applyDueScheduledSwitch(tx, { subscriptionId: args.subscriptionId, now: args.now });
  const ran: LifecycleStep[] = [];
  const hears = hearingFrom(tx);
  for (let i = 0; i < MAX_STEPS_PER_RUN; i++) {
    const sub = await tx.subscription.findUnique({ where: { id: args.subscriptionId } });
    if (!sub) return ran;
    const step = await stepOf(sub, args.now, hears);
    if (!step) return ran;
    if (step.at.getTime() > args.now.getTime()) {
      await enqueueStep(tx, sub, step, args.now);
      return ran;
    }
    if (step.kind === "remind") await remind(ctx, sub);
    else if (step.kind === "charge") await charge(ctx, sub);
    else if (step.kind === "retry_charge") await retryCharge(ctx, sub);
    else if (step.kind === "await_gateway") await awaitGateway(ctx, sub);
    else if (step.kind === "enter_grace")
      await enterGrace(ctx, sub, sub.endTimestamp!, "The period ended unpaid.", false);
    else await expire(ctx, sub);
    ran.push(step);
  }
  // Still behind after MAX_STEPS_PER_RUN: continue in a fresh job at once.
  const sub = await tx.subscription.findUnique({ where: { id: args.subscriptionId } });
  const step = sub ? await stepOf(sub, args.now, hears) : null;
  if (sub && step)
    await enqueueStep(tx, sub, { ...step, at: new Date(Math.max(step.at.getTime(), args.now.getTime())) }, args.now);
  return ran;
}

// ─── Jobs ────────────────────────────────────────────────────────────────────────────────────

export const subscriptionLifecycleJob = defineJob<{ subscriptionId: number }>({
  name: "subscription.lifecycle",
  kind: "transactional",
  payload: z.object({ subscriptionId: z.number().int().positive() }),
  maxAttempts: 8,
  /** Longer than a step with a gateway call (whose timeout is far shorter); a dead worker's step restarts after it. */
  leaseMs: 30_000,
  async run(tx, job, ctx) {
    await advanceSubscription(tx, { subscriptionId: job.payload.subscriptionId, now: ctx.clock(), appUrl: ctx.appUrl });
  },
});

/** Subscriptions examined per sweep. */
const SWEEP_LIMIT = 500;

/**
 * Queue the due step of every subscription that may have one and has no lifecycle job pending
 * (its step is keyed: one already queued is kept). Returns how many were queued.
 */
export async function sweepSubscriptionLifecycle(db: Db, now: Date): Promise<number> {
  const horizon = new Date(now.getTime() + RENEWAL_REMINDER_DAYS * DAY_MS);
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT s.id FROM subscriptions s
     WHERE s.deleted_at IS NULL AND s.status IN ('active', 'cancelled')
       AND (s.grace_ends_at <= ${now} OR s.charge_retry_at <= ${horizon} OR s.next_payment_due_date <= ${horizon}
            OR s.end_timestamp <= ${horizon})
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'pending' AND j.key LIKE 'subscription.lifecycle:' || s.id || '@%')
     ORDER BY s.id
     LIMIT ${SWEEP_LIMIT}`;
  if (rows.length === 0) return 0;
  const subs = await db.subscription.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const hears = hearingFrom(db);
  const items = [];
  for (const sub of subs) {
    const step = await stepOf(sub, now, hears);
    if (step)
      items.push({
        payload: { subscriptionId: sub.id },
        key: lifecycleJobKey(sub.id, step.at),
        runAt: step.at,
        accountId: sub.accountId,
        now,
      });
  }
  await enqueueJobs(db, subscriptionLifecycleJob, items);
  return items.length;
}

export const subscriptionLifecycleSweepJob = defineSweepJob({
  name: "subscription.lifecycle_sweep",
  everyMs: 5 * 60_000,
  async run(tx, _job, ctx) {
    await sweepSubscriptionLifecycle(tx, ctx.clock());
  },
});
