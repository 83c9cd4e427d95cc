/**
 * Payment-gateway webhooks in (interface-spec §6 "Payment-gateway webhooks"). Vocabulary:
 * - event: one webhook a gateway sent, kept as a `gateway_events` row, unique on (account,
 *   provider, the gateway's event id): a gateway's repeated delivery finds the row and changes
 *   nothing;
 * - job: what the adapter's webhookEventTypeMapping() names for the event
 *   (one_time_subscription_charged, recurring_subscription_charged,
 *   recurring_subscription_cancelled, recurring_subscription_payment_method_updated), run on the
 *   job engine as "payment_gateway.event".
 *
 * `receiveGatewayWebhook` (the route's whole work) checks the signature, reads the details,
 * stores the event and enqueues its job in one transaction, and answers at once. The job then
 * settles the payment: one_time_subscription_charged marks the payment and activates the pending
 * subscription, emitting subscription.activated, in the job's transaction (exactly once, also
 * when events of one payment arrive together: the subscription row is locked). The recurring
 * jobs (recurring_subscription_charged, recurring_subscription_cancelled, a card change) are settled by
 * ./recurring-events.ts for the subscription lifecycle, in the same job.
 *
 * Event status: received (job pending) → processed | ignored (with `error` saying why) | failed.
 */
import "server-only";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { defineJob, type JobResult } from "../../jobs/define";
import { enqueueJob } from "../../jobs/queue";
import { log } from "../../log";
import { issueInvoiceForPayment } from "../invoices/invoices";
import { emitSubscriptionEvent } from "../subscribers/subscription-view";
import { PaymentAdapterError, type GatewayEventDetails, type PaymentAdapter } from "./adapter";
import { gatewayCredentialsFor } from "./credentials";
import { settleGatewayDispute } from "./gateway-disputes";
import { settleGatewayRefund } from "./gateway-refunds";
import { settleGatewaySubscriptionUpdate } from "./gateway-subscription-events";
import type { GatewayJobName } from "./jobs";
import {
  checkoutPaymentAmount,
  settlePaymentMethodUpdate,
  settleRecurringCancel,
  settleRecurringCharge,
  settleRecurringPaymentFailed,
} from "./recurring-events";
import { paymentAdapterForProvider } from "./registry";

/** How long after an attempt expires a payment of it still waits for the checkout's create. */
export const CREATE_GRACE_MS = 10 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What is stored in gateway_events.payload: the adapter's details and the job chosen. */
type StoredEvent = { job: GatewayJobName | null; details: GatewayEventDetails };

type WebhookReceipt = { status: "accepted" | "duplicate" | "ignored"; eventId: number | null };

/** The adapter of a provider that receives webhooks, or 404. */
function webhookAdapter(provider: string): PaymentAdapter {
  const adapter = paymentAdapterForProvider(provider);
  if (!adapter || !adapter.takesPayment) throw new AppError("NOT_FOUND", "No such payment gateway.");
  return adapter;
}

/**
 * One webhook as received (raw body: what the gateway signed). Throws 404 (no such gateway for
 * the account), 401 (the signature does not verify: nothing is stored) or 400 (not an event the
 * adapter can read). A duplicate answers "duplicate" and changes nothing.
 */
export async function receiveGatewayWebhook(
  db: Db,
  args: { provider: string; accountId: number; headers: Headers; rawBody: string; now: Date },
): Promise<WebhookReceipt> {
  const adapter = webhookAdapter(args.provider);
  const creds = await gatewayCredentialsFor(db, args.accountId, args.provider, { includeDisabled: true });
  if (!creds) throw new AppError("NOT_FOUND", "No such payment gateway.");
  const request = { headers: args.headers, rawBody: args.rawBody };
  if (!adapter.webhookRequestAuthorized(creds, request)) {
    log.warn("payment gateway webhook refused: bad signature", { provider: args.provider, account: args.accountId });
    throw new AppError("UNAUTHORIZED", "The webhook signature does not verify.");
  }
  let details: GatewayEventDetails;
  try {
    details = adapter.webhookEventDetails(request);
  } catch (error) {
    if (error instanceof PaymentAdapterError) throw new AppError("BAD_REQUEST", error.message);
    throw error;
  }
  const job = ownValue(adapter.webhookEventTypeMapping(), details.event) ?? null;
  const { status, reason } = initialStatus(job);
  const stored: StoredEvent = { job, details };
  return withTransaction(db, async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO gateway_events (account_id, provider, external_event_id, event_type, payload, status, error, processed_at, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::timestamptz, $9::timestamptz)
       ON CONFLICT (account_id, provider, external_event_id) DO NOTHING
       RETURNING id`,
      args.accountId,
      args.provider,
      details.eventId,
      details.event,
      JSON.stringify(stored),
      status,
      reason,
      status === "received" ? null : args.now.toISOString(),
      args.now.toISOString(),
    );
    if (!row) return { status: "duplicate", eventId: null };
    if (status !== "received") return { status: "ignored", eventId: row.id };
    await enqueueJob(tx, gatewayEventJob, { gatewayEventId: row.id }, { accountId: args.accountId, now: args.now });
    return { status: "accepted", eventId: row.id };
  });
}

function initialStatus(job: GatewayJobName | null): { status: "received" | "ignored"; reason: string | null } {
  if (job === null) return { status: "ignored", reason: "No job is mapped to this event." };
  return { status: "received", reason: null };
}

// ─── one_time_subscription_charged ───────────────────────────────────────────────────────────

type Outcome =
  | { status: "processed" | "ignored" | "failed"; reason: string | null }
  | { status: "retry"; at: Date; reason: string }
  | { status: "refund"; reason: string };

const PAYMENT_STATUS_RANK = { PENDING: 0, FAILED: 0, AUTHORIZED: 1, CAPTURED: 2, REFUNDED: 3 } as const;

/**
 * A one-time payment the gateway reports (authorized or captured): find its subscription (by
 * the payment, the order frozen in the attempt, or the attempt id the order's notes carry), record
 * the payment, and activate the subscription when the payment is captured and matches what the
 * subscription costs. No subscription yet: wait while its checkout may still create it; after
 * that, a payment of one of our attempts is returned (refund), anything else is not ours.
 */
export async function settleOneTimeCharge(
  tx: TransactionClient,
  args: { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date },
): Promise<Outcome> {
  const { accountId, adapter, details, now } = args;
  if (details.recurring)
    return {
      status: "ignored",
      reason: "A payment of a gateway subscription: recurring_subscription_charged settles it.",
    };
  const paymentId = details.externalPaymentId;
  const orderId = details.externalOrderId;
  const noteAttempt =
    typeof details.notes.attempt_id === "string" && UUID.test(details.notes.attempt_id)
      ? details.notes.attempt_id
      : null;
  if (!paymentId) return { status: "ignored", reason: "The event names no payment." };
  const paymentTypes = [...adapter.paymentTypes];

  const attemptOr: Prisma.SubscriptionAttemptWhereInput[] = [
    ...(orderId ? [{ externalReferenceId: orderId }] : []),
    ...(noteAttempt ? [{ id: noteAttempt }] : []),
  ];
  const attempt = attemptOr.length
    ? await tx.subscriptionAttempt.findFirst({
        where: { accountId, paymentType: { in: paymentTypes }, OR: attemptOr },
        select: { id: true, usedAt: true, expiresAt: true, amountCents: true, currency: true },
      })
    : null;
  const payment = await tx.payment.findFirst({
    where: {
      accountId,
      paymentType: { in: paymentTypes },
      OR: [{ externalPaymentId: paymentId }, ...(orderId ? [{ externalOrderId: orderId }] : [])],
      subscriptionId: { not: null },
    },
    orderBy: { id: "asc" },
    select: { subscriptionId: true },
  });
  const subscriptionId =
    payment?.subscriptionId ??
    (attempt
      ? ((await tx.subscription.findFirst({ where: { accountId, attemptId: attempt.id }, select: { id: true } }))?.id ??
        null)
      : null);

  if (subscriptionId === null) {
    if (!attempt) return { status: "ignored", reason: "Not a payment of a Masthead checkout: left alone." };
    const deadline = new Date(attempt.expiresAt.getTime() + CREATE_GRACE_MS);
    if (!attempt.usedAt && now < deadline)
      return { status: "retry", at: deadline, reason: "Waiting for the checkout to create the subscription." };
    return { status: "refund", reason: "No subscription was created for this payment." };
  }

  // One settlement of a subscription at a time: events of one payment (authorized, captured)
  // may be processed together by two workers.
  await tx.$queryRawUnsafe(`SELECT id FROM subscriptions WHERE id = $1 FOR UPDATE`, subscriptionId);
  const row = await tx.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
  // This event pays the checkout (with a trial: the authorization), not a period's charge.
  const checkout = await checkoutPaymentAmount(tx, row);
  const subscription = { ...row, paymentAmountCents: checkout.amountCents, paymentAmountCurrency: checkout.currency };
  if (
    details.amountCents !== checkout.amountCents ||
    (details.currency ?? "").toUpperCase() !== checkout.currency.toUpperCase()
  )
    return {
      status: "failed",
      reason: `The payment (${details.amountCents ?? "?"} ${details.currency ?? "?"}) differs from the checkout's (${checkout.amountCents} ${checkout.currency}).`,
    };

  const reported = details.status === "captured" ? "CAPTURED" : details.status === "authorized" ? "AUTHORIZED" : null;
  if (!reported) return { status: "ignored", reason: `The payment is ${details.status ?? "in an unknown state"}.` };
  await recordPayment(tx, { accountId, subscription, paymentId, orderId, status: reported, details, now });

  if (reported !== "CAPTURED")
    return { status: "processed", reason: "Payment authorized; the subscription waits for its capture." };
  if (subscription.status === "ACTIVE") return { status: "processed", reason: "The subscription was already active." };
  if (subscription.status !== "PENDING")
    return { status: "ignored", reason: `The subscription is ${subscription.status.toLowerCase()}: not activated.` };
  const activated = await tx.subscription.updateMany({
    where: { id: subscription.id, status: "PENDING" },
    data: { status: "ACTIVE", ...(subscription.paymentToken ? {} : { paymentToken: paymentId }) },
  });
  if (activated.count === 0) return { status: "processed", reason: "The subscription was already active." };
  if (subscription.subscriptionType === "CAMPAIGN" && subscription.groupId !== null)
    await tx.subscriptionGroup.update({
      where: { id: subscription.groupId },
      data: { collectedAmountCents: { increment: subscription.paymentAmountCents } },
    });
  await emitSubscriptionEvent(tx, {
    accountId,
    name: "subscription.activated",
    subscriptionId: subscription.id,
    occurredAt: now,
  });
  return { status: "processed", reason: null };
}

/**
 * The payment row of this gateway payment: created, or moved forward (never backward). A payment
 * that becomes captured here is invoiced in the same transaction (`issueInvoiceForPayment`).
 */
async function recordPayment(
  tx: TransactionClient,
  args: {
    accountId: number;
    subscription: {
      id: number;
      attemptId: string | null;
      paymentType: string;
      paymentAmountCents: number;
      paymentAmountCurrency: string;
    };
    paymentId: string;
    orderId: string | null;
    status: "AUTHORIZED" | "CAPTURED";
    details: GatewayEventDetails;
    now: Date;
  },
) {
  const { subscription, paymentId, status } = args;
  const existing =
    (await tx.payment.findFirst({
      where: { accountId: args.accountId, paymentType: subscription.paymentType, externalPaymentId: paymentId },
    })) ??
    (await tx.payment.findFirst({
      where: { accountId: args.accountId, subscriptionId: subscription.id, externalPaymentId: null },
      orderBy: { id: "asc" },
    }));
  const gateway = { status: args.details.status, fee_cents: args.details.feeCents ?? null, event: args.details.event };
  if (existing) {
    if (PAYMENT_STATUS_RANK[existing.status] >= PAYMENT_STATUS_RANK[status] && existing.externalPaymentId) return;
    const moved = await tx.payment.update({
      where: { id: existing.id },
      data: {
        externalPaymentId: paymentId,
        ...(args.orderId && !existing.externalOrderId ? { externalOrderId: args.orderId } : {}),
        ...(PAYMENT_STATUS_RANK[existing.status] < PAYMENT_STATUS_RANK[status] ? { status } : {}),
        details: { ...((existing.details as object | null) ?? {}), gateway },
      },
      select: { id: true, status: true },
    });
    if (moved.status === "CAPTURED") await issueInvoiceForPayment(tx, moved.id, { now: args.now });
    return;
  }
  const created = await tx.payment.create({
    data: {
      accountId: args.accountId,
      subscriptionId: subscription.id,
      attemptId: subscription.attemptId,
      paymentType: subscription.paymentType,
      externalPaymentId: paymentId,
      externalOrderId: args.orderId,
      amountCents: subscription.paymentAmountCents,
      currency: subscription.paymentAmountCurrency,
      status,
      details: { gateway },
    },
    select: { id: true },
  });
  // A payment captured now is invoiced in the same transaction (one invoice per payment).
  if (status === "CAPTURED") await issueInvoiceForPayment(tx, created.id, { now: args.now });
}

// ─── Jobs ────────────────────────────────────────────────────────────────────────────────────

async function loadEvent(db: Db, id: number) {
  const event = await db.gatewayEvent.findUnique({ where: { id } });
  if (!event) return null;
  return { ...event, stored: event.payload as unknown as StoredEvent };
}

/** The jobs other than one_time_subscription_charged, by name (recurring-events.ts, gateway-refunds.ts, gateway-disputes.ts). */
const RECURRING_SETTLERS = new Map<string, typeof settleRecurringPaymentFailed>([
  ["recurring_subscription_charged", settleRecurringCharge],
  ["recurring_subscription_cancelled", settleRecurringCancel],
  ["recurring_subscription_payment_method_updated", settlePaymentMethodUpdate],
  ["recurring_subscription_updated", settleGatewaySubscriptionUpdate],
  ["recurring_subscription_payment_failed", settleRecurringPaymentFailed],
  ["payment_refunded", settleGatewayRefund],
  ["payment_disputed", settleGatewayDispute],
]);

/** "payment_gateway.event": run the job an event maps to, once. */
export const gatewayEventJob = defineJob<{ gatewayEventId: number }>({
  name: "payment_gateway.event",
  kind: "transactional",
  payload: z.object({ gatewayEventId: z.number().int().positive() }),
  maxAttempts: 8,
  async run(tx, job, ctx): Promise<JobResult | void> {
    const event = await loadEvent(tx, job.payload.gatewayEventId);
    if (!event || event.status !== "received") return;
    const now = ctx.clock();
    const adapter = paymentAdapterForProvider(event.provider);
    const finish = (status: string, error: string | null) =>
      tx.gatewayEvent.update({ where: { id: event.id }, data: { status, error, processedAt: now } });
    if (!adapter) return void (await finish("failed", "No adapter for this provider any more."));
    if (event.stored.job === null) return void (await finish("ignored", initialStatus(null).reason));
    if (event.stored.job !== "one_time_subscription_charged") {
      const settle = RECURRING_SETTLERS.get(event.stored.job) ?? settleRecurringCancel;
      const result = await settle(tx, {
        accountId: event.accountId,
        adapter,
        details: event.stored.details,
        now,
        appUrl: ctx.appUrl,
      });
      return void (await finish(result.status, result.reason));
    }
    const outcome = await settleOneTimeCharge(tx, {
      accountId: event.accountId,
      adapter,
      details: event.stored.details,
      now,
    });
    if (outcome.status === "retry") {
      await tx.gatewayEvent.update({ where: { id: event.id }, data: { error: outcome.reason } });
      return { status: "retry", at: outcome.at, error: outcome.reason };
    }
    if (outcome.status === "refund") {
      if (!adapter.beforeExitOnSubscriptionAbsence) return void (await finish("ignored", outcome.reason));
      await finish("ignored", `${outcome.reason} Returning the payment through the gateway.`);
      await enqueueJob(tx, gatewayAbsenceJob, { gatewayEventId: event.id }, { accountId: event.accountId, now });
      return;
    }
    await finish(outcome.status, outcome.reason);
  },
});

type AbsenceWork = { gatewayEventId: number; result: string };

/**
 * "payment_gateway.absence": spec §6 before_exit_on_subscription_absence for a payment no
 * subscription took (cancel the gateway subscription, refund the payment). Outside work: done at
 * least once (the adapter treats "already refunded" as done), the outcome written on the event.
 */
export const gatewayAbsenceJob = defineJob<{ gatewayEventId: number }, AbsenceWork>({
  name: "payment_gateway.absence",
  kind: "external",
  payload: z.object({ gatewayEventId: z.number().int().positive() }),
  maxAttempts: 6,
  async perform(db, jobs) {
    const performed = [];
    for (const job of jobs) {
      const event = await loadEvent(db, job.payload.gatewayEventId);
      const adapter = event ? paymentAdapterForProvider(event.provider) : null;
      const creds = event
        ? await gatewayCredentialsFor(db, event.accountId, event.provider, { includeDisabled: true })
        : null;
      if (!event || !adapter?.beforeExitOnSubscriptionAbsence || !creds) {
        performed.push({
          job,
          result: { status: "done" as const },
          data: {
            gatewayEventId: job.payload.gatewayEventId,
            result: "Not returned: the gateway is no longer set up.",
          },
        });
        continue;
      }
      try {
        await adapter.beforeExitOnSubscriptionAbsence(creds, event.stored.details);
        performed.push({
          job,
          result: { status: "done" as const },
          data: {
            gatewayEventId: event.id,
            result: "No subscription was created for this payment: returned through the gateway.",
          },
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn("payment gateway refund failed", { event: event.id, error: message });
        performed.push({ job, result: { status: "error" as const, error: message } });
      }
    }
    return performed;
  },
  async record(tx, performed) {
    for (const p of performed)
      if (p.data)
        await tx.gatewayEvent.update({ where: { id: p.data.gatewayEventId }, data: { error: p.data.result } });
  },
  async onFailed(tx, job, error) {
    await tx.gatewayEvent.updateMany({
      where: { id: job.payload.gatewayEventId },
      data: { status: "failed", error: `Returning the payment failed: ${error}`.slice(0, 2000) },
    });
  },
});
