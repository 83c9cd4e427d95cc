/**
 * The recurring gateway events (interface-spec §6 jobs recurring_subscription_charged and
 * recurring_subscription_cancelled), run by "payment_gateway.event" (gateway-events.ts)
 * in its transaction. A gateway that charges its subscriptions by itself (Razorpay) tells us each
 * charge here; the lifecycle (../recurring/lifecycle.ts) only expires or starts the grace period when none came.
 *
 * Order-independent and idempotent:
 * - a charge is known by the gateway's payment id (payments are unique per account, payment type
 *   and id): the same payment twice, in one event or two, is recorded and counted once;
 * - each new charge adds one period to end_timestamp, whatever the order the periods arrive in
 *   (period 3 before period 2 ends at the same end as 2 then 3), except the first after a trial:
 *   it pays the period from the trial's end that checkout already counted (chargedPeriod);
 * - a cancellation is a state, not a toggle: cancelled before or after a charge, the subscription
 *   ends cancelled, with the charged periods counted.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { TransactionClient } from "../../db/client";
import type { Prisma, Subscription } from "../../generated/prisma/client";
import { recordCharge } from "../recurring/charges";
import { beginDunning, endDunning } from "../recurring/dunning";
import { retryChargeSoon, scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { addDuration } from "../subscribers/subscription-state";
import { emitSubscriptionEvent } from "../subscribers/subscription-view";
import type { GatewayEventDetails, PaymentAdapter } from "./adapter";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type DurationOf = { durationLength: number; durationUnit: Subscription["durationUnit"] };

type RecurringOutcome = { status: "processed" | "ignored" | "failed"; reason: string | null };

/** The subscription a recurring event is about: by the payment, the gateway subscription, or the attempt. */
export async function findSubscriptionId(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails },
): Promise<number | null> {
  const { accountId, details } = args;
  const paymentTypes = [...args.adapter.paymentTypes];
  const refs = [details.externalSubscriptionId, details.externalOrderId].filter((r): r is string => Boolean(r));
  const paymentOr: Prisma.PaymentWhereInput[] = [
    ...(details.externalPaymentId ? [{ externalPaymentId: details.externalPaymentId }] : []),
    ...(refs.length ? [{ externalOrderId: { in: refs } }] : []),
  ];
  if (paymentOr.length) {
    const payment = await tx.payment.findFirst({
      where: { accountId, paymentType: { in: paymentTypes }, subscriptionId: { not: null }, OR: paymentOr },
      orderBy: { id: "asc" },
      select: { subscriptionId: true },
    });
    if (payment?.subscriptionId) return payment.subscriptionId;
  }
  const subOr: Prisma.SubscriptionWhereInput[] = [
    ...(refs.length
      ? [
          { paymentToken: { in: refs } },
          { gatewaySubscriptionId: { in: refs } },
          { attempt: { externalReferenceId: { in: refs } } },
        ]
      : []),
    ...(typeof details.notes.attempt_id === "string" && UUID.test(details.notes.attempt_id)
      ? [{ attemptId: details.notes.attempt_id }]
      : []),
  ];
  if (!subOr.length) return null;
  const sub = await tx.subscription.findFirst({
    where: { accountId, paymentType: { in: paymentTypes }, OR: subOr },
    select: { id: true },
  });
  return sub?.id ?? null;
}

/**
 * What the subscription's checkout was paid (its attempt's amount: with a trial, the authorization),
 * as opposed to `paymentAmountCents`, what each period is charged. Subscriptions made without a
 * checkout attempt (imports, staff) paid their period's amount.
 */
export async function checkoutPaymentAmount(
  tx: TransactionClient,
  subscription: { attemptId: string | null; paymentAmountCents: number; paymentAmountCurrency: string },
): Promise<{ amountCents: number; currency: string }> {
  const attempt = subscription.attemptId
    ? await tx.subscriptionAttempt.findUnique({
        where: { id: subscription.attemptId },
        select: { amountCents: true, currency: true },
      })
    : null;
  return attempt
    ? { amountCents: attempt.amountCents, currency: attempt.currency }
    : { amountCents: subscription.paymentAmountCents, currency: subscription.paymentAmountCurrency };
}

/** A subscription webhook event of `name`, now (subscription-view.ts). */
const emit = (
  tx: TransactionClient,
  at: { accountId: number; subscriptionId: number; now: Date },
  name: Parameters<typeof emitSubscriptionEvent>[1]["name"],
) =>
  emitSubscriptionEvent(tx, { accountId: at.accountId, name, subscriptionId: at.subscriptionId, occurredAt: at.now });

export async function lockSubscription(tx: TransactionClient, id: number) {
  await tx.$queryRawUnsafe(`SELECT id FROM subscriptions WHERE id = $1 FOR UPDATE`, id);
  return tx.subscription.findUniqueOrThrow({ where: { id } });
}

/**
 * The period a gateway's new charge pays. After a trial, the first charge pays the period that
 * starts at the trial's end: checkout already set the end one period after it, so that end stays
 * (a subscription cancelled in its trial, whose end is the trial's end, gets that period). Every
 * other charge pays the period after the current end. The subscription's row is locked, so two
 * charges at once are counted one after the other.
 */
async function chargedPeriod(
  tx: TransactionClient,
  sub: { id: number; trialEndsAt: Date | null; endTimestamp: Date | null } & DurationOf,
  now: Date,
): Promise<{ periodStart: Date; periodEnd: Date | null }> {
  if (sub.trialEndsAt !== null) {
    const paid = await tx.payment.findFirst({
      where: {
        subscriptionId: sub.id,
        details: { path: ["recurring_charge", "period_start"], equals: sub.trialEndsAt.toISOString() },
      },
      select: { id: true },
    });
    if (!paid)
      return {
        periodStart: sub.trialEndsAt,
        periodEnd: addDuration(sub.trialEndsAt, sub.durationLength, sub.durationUnit),
      };
  }
  return {
    periodStart: sub.endTimestamp ?? now,
    periodEnd: sub.endTimestamp ? addDuration(sub.endTimestamp, sub.durationLength, sub.durationUnit) : null,
  };
}

/** recurring_subscription_charged: record the payment once and add one period (activating a pending subscription). */
export async function settleRecurringCharge(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<RecurringOutcome> {
  const { accountId, details, now } = args;
  if (!details.externalPaymentId) return { status: "ignored", reason: "The event names no payment." };
  const subscriptionId = await findSubscriptionId(tx, args);
  if (subscriptionId === null)
    return { status: "ignored", reason: "No subscription of ours has this gateway subscription." };
  const sub = await lockSubscription(tx, subscriptionId);
  const known = await tx.payment.findFirst({
    where: { accountId, paymentType: sub.paymentType, externalPaymentId: details.externalPaymentId },
    select: { id: true, status: true },
  });
  if (known && known.status === "CAPTURED") return { status: "processed", reason: "This payment is already recorded." };
  // A pending subscription's first charge pays its checkout (with a trial: the authorization);
  // every later one a period, at the subscription's amount (the price after coupon and tax).
  const expected =
    sub.status === "PENDING"
      ? await checkoutPaymentAmount(tx, sub)
      : { amountCents: sub.paymentAmountCents, currency: sub.paymentAmountCurrency };
  if (
    details.amountCents !== null &&
    (details.amountCents !== expected.amountCents ||
      (details.currency ?? "").toUpperCase() !== expected.currency.toUpperCase())
  )
    return {
      status: "failed",
      reason: `The charge (${details.amountCents} ${details.currency ?? "?"}) differs from the subscription's (${expected.amountCents} ${expected.currency}).`,
    };

  if (sub.status === "PENDING") {
    // The first charge of a subscription checkout left pending: it pays the period checkout set.
    const pending =
      known ?? (await tx.payment.findFirst({ where: { subscriptionId: sub.id, status: { not: "CAPTURED" } } }));
    if (pending)
      await tx.payment.update({
        where: { id: pending.id },
        data: { status: "CAPTURED", externalPaymentId: details.externalPaymentId },
      });
    else
      await recordCharge(tx, {
        subscription: sub,
        amountCents: expected.amountCents,
        currency: expected.currency,
        externalPaymentId: details.externalPaymentId,
        externalOrderId: details.externalSubscriptionId,
        periodStart: sub.startTimestamp,
        periodEnd: sub.endTimestamp,
        source: "gateway",
        details: { event: details.event, status: details.status ?? null },
        now,
      });
    await tx.subscription.update({ where: { id: sub.id }, data: { status: "ACTIVE" } });
    await emit(tx, { accountId, subscriptionId: sub.id, now }, "subscription.activated");
    await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
    return { status: "processed", reason: null };
  }

  const { periodStart, periodEnd } = await chargedPeriod(tx, sub, now);
  const end =
    periodEnd === null || sub.endTimestamp === null
      ? periodEnd
      : new Date(Math.max(periodEnd.getTime(), sub.endTimestamp.getTime()));
  // A later period's charge, not the checkout's payment: no attempt (see lifecycle.ts settlePeriod).
  const recorded = await recordCharge(tx, {
    subscription: { ...sub, attemptId: null },
    amountCents: sub.paymentAmountCents,
    currency: sub.paymentAmountCurrency,
    externalPaymentId: details.externalPaymentId,
    externalOrderId: details.externalSubscriptionId,
    periodStart,
    periodEnd,
    source: "gateway",
    details: { event: details.event, status: details.status ?? null },
    now,
  });
  if (!recorded) return { status: "processed", reason: "This payment is already recorded." };
  if (sub.status === "EXPIRED" || sub.status === "FAILED")
    return {
      status: "processed",
      reason: `Payment recorded; the subscription is ${sub.status.toLowerCase()} and was not extended.`,
    };
  const live = sub.status === "ACTIVE" && sub.cancelledAt === null;
  await tx.subscription.update({
    where: { id: sub.id },
    data: {
      endTimestamp: end,
      graceEndsAt: null,
      chargeRetryAt: null,
      gatewayWordDueAt: null,
      nextPaymentDueDate: live ? end : null,
    },
  });
  await emit(tx, { accountId, subscriptionId: sub.id, now }, "subscription.renewed");
  // Paid in its grace period (the gateway's own retry): the failure episode is recovered (dunning.ts).
  if (await endDunning(tx, { subscriptionId: sub.id, outcome: "RECOVERED", paymentId: recorded.id, now }))
    await emit(tx, { accountId, subscriptionId: sub.id, now }, "subscription.recovered");
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
  return { status: "processed", reason: null };
}

/** recurring_subscription_cancelled: the gateway stopped charging (cancelled or halted): cancel, once. */
export async function settleRecurringCancel(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<RecurringOutcome> {
  const { accountId, now } = args;
  const subscriptionId = await findSubscriptionId(tx, args);
  if (subscriptionId === null)
    return { status: "ignored", reason: "No subscription of ours has this gateway subscription." };
  const sub = await lockSubscription(tx, subscriptionId);
  // Ended at the gateway (not halted: a new card revives that): a pause's wake-up leaves it ended.
  if (args.details.gatewaySubscription?.state === "ended")
    await tx.subscription.update({ where: { id: sub.id }, data: { gatewayState: "ended", gatewayStateAt: now } });
  if (sub.cancelledAt !== null || sub.status === "CANCELLED")
    return { status: "processed", reason: "The subscription was already cancelled." };
  if (sub.status !== "ACTIVE" && sub.status !== "PENDING")
    return { status: "ignored", reason: `The subscription is ${sub.status.toLowerCase()}: nothing to cancel.` };
  // A pending subscription was never paid: cancelled, it must not start granting access (FAILED).
  await tx.subscription.update({
    where: { id: sub.id },
    data: { status: sub.status === "PENDING" ? "FAILED" : "CANCELLED", cancelledAt: now, nextPaymentDueDate: null },
  });
  await emit(tx, { accountId, subscriptionId: sub.id, now }, "subscription.cancelled");
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
  return { status: "processed", reason: null };
}

/**
 * recurring_subscription_payment_method_updated: the gateway now charges another card for the
 * subscription (the reader changed it on the gateway's hosted page, e.g. Razorpay's
 * `subscription.updated`): the subscription's payment_token becomes the card's reference, audited
 * with its label. The same card again (a repeated or later event) changes nothing.
 */
export async function settlePaymentMethodUpdate(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<RecurringOutcome> {
  const { accountId, details, now } = args;
  const method = details.paymentMethod;
  if (!method) return { status: "ignored", reason: "The event names no payment method." };
  const subscriptionId = await findSubscriptionId(tx, args);
  if (subscriptionId === null)
    return { status: "ignored", reason: "No subscription of ours has this gateway subscription." };
  const sub = await lockSubscription(tx, subscriptionId);
  if (sub.paymentToken === method.token) return { status: "processed", reason: "The payment method is unchanged." };
  await tx.subscription.update({ where: { id: sub.id }, data: { paymentToken: method.token } });
  await recordAudit(tx, {
    actor: systemActor(accountId, "payment_gateway"),
    action: "subscription.payment_method.update",
    targetType: "subscription",
    targetId: sub.id,
    metadata: { payment_type: sub.paymentType, label: method.label, source: "gateway", event: details.event },
    now,
  });
  // In grace: the unpaid period is retried on the new card now when we charge it (a gateway that
  // charges by itself, like Razorpay, retries on its own and this does nothing).
  await retryChargeSoon(tx, { subscriptionId: sub.id, now });
  return { status: "processed", reason: null };
}

/**
 * recurring_subscription_payment_failed: the gateway could not charge a period and retries on its
 * own (it charges its subscriptions itself). Once the paid period has ended, the grace period
 * starts now rather than when the gateway's word was due (lifecycle-steps.ts await_gateway), with
 * its e-mail, once per period (dunning.ts: a repeated or later failure of the period mails nothing
 * more). A failure before the period's end (a gateway charging early) waits for the end.
 */
export async function settleRecurringPaymentFailed(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date; appUrl: string },
): Promise<RecurringOutcome> {
  const { accountId, now } = args;
  const subscriptionId = await findSubscriptionId(tx, args);
  if (subscriptionId === null)
    return { status: "ignored", reason: "No subscription of ours has this gateway subscription." };
  const sub = await lockSubscription(tx, subscriptionId);
  if (sub.status !== "ACTIVE" || sub.cancelledAt !== null || !sub.recurring)
    return { status: "ignored", reason: `The subscription is ${sub.status.toLowerCase()}: no renewal is due.` };
  if (sub.endTimestamp === null || sub.endTimestamp.getTime() > now.getTime())
    return { status: "ignored", reason: "The paid period has not ended: its end starts the grace period if unpaid." };
  if (sub.graceEndsAt !== null && sub.gatewayWordDueAt === null)
    return { status: "processed", reason: "The subscription is already in its grace period." };
  const { opened } = await beginDunning(tx, {
    sub,
    paidThrough: sub.endTimestamp,
    charged: false,
    reason: "The payment gateway could not charge the period.",
    now,
    appUrl: args.appUrl,
  });
  if (opened) await emit(tx, { accountId, subscriptionId: sub.id, now }, "subscription.grace_period_entered");
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
  return { status: "processed", reason: null };
}
