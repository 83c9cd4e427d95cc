/**
 * Outgoing webhook deliveries. Vocabulary:
 * - event: something happened (row in webhook_events; `id` is the spec's numeric event id);
 * - delivery: one event to one endpoint, PENDING until it SUCCEEDED or FAILED for good;
 * - attempt: one HTTP POST of a delivery (webhook_attempts).
 *
 * Each delivery is a job of the job engine (server/jobs): "webhook.deliver", enqueued with the
 * delivery in the transaction of the change that causes the event. The engine holds the job while
 * an attempt is sent, so two processes never send the same attempt, and a crashed worker's job is
 * taken up again when its lease expires. One run makes one attempt; a failed attempt asks to run
 * again at the policy's next time. Every function takes the clock, so tests move time instead of
 * sleeping.
 */
import { randomUUID } from "node:crypto";

import { z } from "zod";

import { ProcessCache } from "../cache/process-cache";
import type { Db, TransactionClient } from "../db/client";
import { AppError } from "../errors";
import type { WebhookKind } from "../generated/prisma/client";
import { defineJob, type Clock, type Performed } from "../jobs/define";
import { enqueueJobs } from "../jobs/queue";
import { EVENTS_BY_KIND, TEST_EVENT } from "./events.schema";
import { webhookRequest } from "./request";
import { allowsPrivateWebhookUrl } from "./test-receiver";
import type { Sender } from "./transport";

/** Per-kind timing. Content follows the spec exactly; subscriptions keep trying for a day. */
export const DELIVERY_POLICY: Record<
  WebhookKind,
  { connectTimeoutMs: number; responseTimeoutMs: number; retryDelaysMs: number[] }
> = {
  // Spec §8: connect 3 s, socket 3 s; 3 more attempts, 10 s apart.
  CONTENT: { connectTimeoutMs: 3_000, responseTimeoutMs: 3_000, retryDelaysMs: [10_000, 10_000, 10_000] },
  // Spec §8: connect 10 s, response 5 s. Retries are not specified: back off over a day, the
  // window after which a failing endpoint is deactivated anyway.
  SUBSCRIPTION: {
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 5_000,
    retryDelaysMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000],
  },
  // Comment events (not in the spec): the content timeouts, and retries over about an hour, since
  // a comment's news goes stale; the endpoint is not deactivated for failing.
  ENGAGEMENT: {
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 5_000,
    retryDelaysMs: [10_000, 60_000, 5 * 60_000, 15 * 60_000, 45 * 60_000],
  },
};

/** Subscription endpoints that have failed for this long are deactivated (spec §3, §8). */
const DEACTIVATE_AFTER_MS = 24 * 3600_000;
/** How long a claim lasts: longer than the slowest attempt (connect + response timeouts). */
export const LEASE_MS = 60_000;
/** Deliveries attempted at once by one batch of the engine. */
const SEND_CONCURRENCY_DEFAULT = 16;

export function maxAttempts(kind: WebhookKind): number {
  return DELIVERY_POLICY[kind].retryDelaysMs.length + 1;
}

/** When attempt number `failed` (1-based) failed at `at`: the next attempt's time, or null when it was the last. */
function nextAttemptAfter(kind: WebhookKind, failed: number, at: Date): Date | null {
  const delay = DELIVERY_POLICY[kind].retryDelaysMs[failed - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay);
}

/** A 2xx is success; 3xx (redirects are not followed), 4xx, 5xx and no response are failures. */
function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

// ─── Outbox ──────────────────────────────────────────────────────────────────────────────────

/** Queue the first attempt of new deliveries, in the transaction that created them. */
async function queueDeliveries(db: Db, deliveries: { id: string }[], accountId: number, now: Date): Promise<void> {
  await enqueueJobs(
    db,
    deliverWebhookJob,
    deliveries.map((d) => ({ payload: { deliveryId: d.id }, runAt: now, accountId, now })),
  );
}

/**
 * Each account's active endpoints of a kind, with the events they take, kept in every instance's
 * memory: events are emitted inside the writes of readers (a comment) and staff, and the endpoints
 * seldom change. The database announces every write to them (cache topic "webhook-endpoints",
 * migration comment_and_webhook_endpoint_notices); while nothing tells this process about changes,
 * every emit reads them.
 */
const activeEndpoints = new ProcessCache<string, { id: string; events: string[] }[]>("webhook-endpoints", {
  ttlMs: 10 * 60_000,
  maxEntries: 10_000,
});

function activeEndpointsOf(db: Db, accountId: number, kind: WebhookKind) {
  return activeEndpoints.load(`${accountId} ${kind}`, () =>
    db.webhookEndpoint.findMany({
      where: { accountId, kind, active: true },
      select: { id: true, events: true },
      orderBy: { createdAt: "asc" },
    }),
  );
}

/**
 * Record an event and one pending delivery per active endpoint subscribed to it. Call it with the
 * transaction client of the change that causes the event: both commit or neither does, and the
 * job engine is woken once the commit is done (server/jobs/queue.ts). Nothing to do afterwards.
 */
export async function emitWebhookEvent(
  db: Db,
  args: { accountId: number; kind: WebhookKind; name: string; data: unknown; occurredAt: Date },
): Promise<{ eventId: bigint; deliveryIds: string[] }> {
  const endpoints = await subscribedEndpoints(db, args);
  const event = await db.webhookEvent.create({
    data: {
      accountId: args.accountId,
      kind: args.kind,
      name: args.name,
      payload: args.data as object,
      occurredAt: args.occurredAt,
    },
  });
  const deliveryIds = await queueEventDeliveries(db, { ...args, eventId: event.id, endpoints });
  return { eventId: event.id, deliveryIds };
}

/**
 * The account's active endpoints of `kind` that take the event `name` (kept in memory), for a
 * writer that inserts the event row itself (a comment's statement: server/engagement/comment-write.ts)
 * and then hands its id to `queueEventDeliveries`, in the same transaction. An unknown event is a
 * programming error.
 */
export async function subscribedEndpoints(
  db: Db,
  args: { accountId: number; kind: WebhookKind; name: string },
): Promise<{ id: string }[]> {
  if (!EVENTS_BY_KIND[args.kind].includes(args.name))
    throw new AppError("INTERNAL", `Unknown ${args.kind} webhook event ${args.name}`);
  return (await activeEndpointsOf(db, args.accountId, args.kind)).filter((e) => e.events.includes(args.name));
}

/** One delivery of the event to each endpoint, each queued for its first attempt, in the event's transaction. */
export async function queueEventDeliveries(
  db: Db,
  args: { accountId: number; eventId: bigint; endpoints: { id: string }[]; occurredAt: Date },
): Promise<string[]> {
  const deliveries = args.endpoints.map((endpoint) => ({
    id: randomUUID(),
    eventId: args.eventId,
    endpointId: endpoint.id,
    nextAttemptAt: args.occurredAt,
  }));
  if (deliveries.length) {
    await db.webhookDelivery.createMany({ data: deliveries });
    await queueDeliveries(db, deliveries, args.accountId, args.occurredAt);
  }
  return deliveries.map((d) => d.id);
}

/** "Send test event": a webhook-test event to one endpoint, whatever it subscribes to. */
export async function sendTestEvent(
  db: Db,
  args: { accountId: number; endpointId: string; now: Date },
): Promise<{ eventId: bigint; deliveryId: string }> {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: args.endpointId, accountId: args.accountId } });
  if (!endpoint) throw new AppError("NOT_FOUND", "Webhook not found.");
  refuseDisabled(endpoint);
  const event = await db.webhookEvent.create({
    data: {
      accountId: args.accountId,
      kind: endpoint.kind,
      name: TEST_EVENT,
      payload: { message: "This is a test event from Masthead.", endpoint: { id: endpoint.id, url: endpoint.url } },
      occurredAt: args.now,
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: { eventId: event.id, endpointId: endpoint.id, nextAttemptAt: args.now, test: true },
  });
  await queueDeliveries(db, [delivery], args.accountId, args.now);
  return { eventId: event.id, deliveryId: delivery.id };
}

/** A disabled endpoint is sent nothing, so nothing is queued for it (it would only fail). */
function refuseDisabled(endpoint: { active: boolean }): void {
  if (!endpoint.active) {
    throw new AppError("CONFLICT", "This webhook is disabled: re-enable it before sending to it.", {
      details: [{ field: "id", issue: "the webhook is disabled" }],
    });
  }
}

/** A new delivery of a completed delivery's event to the same endpoint ("redeliver"). */
export async function redeliver(
  db: Db,
  args: { accountId: number; deliveryId: string; now: Date },
): Promise<{ deliveryId: string }> {
  const original = await db.webhookDelivery.findFirst({
    where: { id: args.deliveryId, endpoint: { accountId: args.accountId } },
    include: { endpoint: { select: { active: true } } },
  });
  if (!original) throw new AppError("NOT_FOUND", "Delivery not found.");
  if (original.status === "PENDING") throw new AppError("CONFLICT", "This delivery is still being attempted.");
  refuseDisabled(original.endpoint);
  const delivery = await db.webhookDelivery.create({
    data: {
      eventId: original.eventId,
      endpointId: original.endpointId,
      nextAttemptAt: args.now,
      redeliveryOf: original.id,
      test: original.test,
    },
  });
  await queueDeliveries(db, [delivery], args.accountId, args.now);
  return { deliveryId: delivery.id };
}

// ─── The job: one attempt per run ────────────────────────────────────────────────────────────

/** Deliveries with what an attempt needs: the event and the endpoint with its secrets. */
async function loadForAttempt(db: Db, ids: string[]) {
  return db.webhookDelivery.findMany({
    where: { id: { in: ids } },
    include: { event: true, endpoint: { omit: { secret: false, previousSecret: false } } },
  });
}
type LoadedDelivery = Awaited<ReturnType<typeof loadForAttempt>>[number];

/** What one attempt did, ready to be written. */
type AttemptRecord = {
  delivery: LoadedDelivery;
  attemptId: string;
  number: number;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  ok: boolean;
  next: Date | null;
  status: "succeeded" | "pending" | "failed";
};

/** What a run found: an attempt made, or a delivery to close without sending (its endpoint is off). */
type DeliveryWork = { kind: "attempt"; record: AttemptRecord } | { kind: "disabled"; deliveryId: string };

/** Send one attempt of a delivery this worker holds (no database write). */
async function sendAttempt(
  delivery: LoadedDelivery,
  args: { clock: Clock; send: Sender; allowPrivate: boolean },
): Promise<AttemptRecord> {
  const now = args.clock();
  const { endpoint, event } = delivery;
  const number = delivery.attemptCount + 1;
  const policy = DELIVERY_POLICY[endpoint.kind];
  const { body, headers } = webhookRequest(event, endpoint, delivery, now);
  const result = await args.send({
    url: endpoint.url,
    body,
    headers,
    connectTimeoutMs: policy.connectTimeoutMs,
    responseTimeoutMs: policy.responseTimeoutMs,
    allowPrivate: allowsPrivateWebhookUrl(endpoint.url, endpoint.accountId, args.allowPrivate),
  });
  const finishedAt = args.clock();
  const ok = isSuccessStatus(result.statusCode);
  const next = ok ? null : nextAttemptAfter(endpoint.kind, number, finishedAt);
  return {
    delivery,
    attemptId: randomUUID(),
    number,
    startedAt: now,
    finishedAt,
    durationMs: result.durationMs,
    statusCode: result.statusCode,
    error: ok ? null : (result.error ?? `HTTP ${result.statusCode}`),
    excerpt: result.excerpt,
    ok,
    next,
    status: ok ? "succeeded" : next ? "pending" : "failed",
  };
}

/**
 * "webhook.deliver": make the next attempt of a pending delivery. A batch of deliveries is sent
 * with bounded concurrency, then recorded in one statement (the database cost per delivery stays
 * small even on PGlite, which runs queries on the server's own thread).
 */
export const deliverWebhookJob = defineJob<{ deliveryId: string }, DeliveryWork>({
  name: "webhook.deliver",
  kind: "external",
  payload: z.object({ deliveryId: z.uuid() }),
  leaseMs: LEASE_MS,
  // Attempts are counted by the delivery's own policy (at most 8); these are for crashes and database errors.
  maxAttempts: 20,
  concurrency: 50,
  async perform(db, jobs, ctx) {
    const deliveries = new Map(
      (
        await loadForAttempt(
          db,
          jobs.map((j) => j.payload.deliveryId),
        )
      ).map((d) => [d.id, d]),
    );
    const performed: Performed<{ deliveryId: string }, DeliveryWork>[] = [];
    const queue = [...jobs];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const delivery = deliveries.get(job.payload.deliveryId);
        // Gone (purged, endpoint deleted) or already done: nothing left to do.
        if (!delivery || delivery.status !== "PENDING") performed.push({ job, result: { status: "done" } });
        else if (!delivery.endpoint.active) {
          performed.push({ job, result: { status: "done" }, data: { kind: "disabled", deliveryId: delivery.id } });
        } else {
          const record = await sendAttempt(delivery, {
            clock: ctx.clock,
            send: ctx.sendWebhook,
            allowPrivate: ctx.allowPrivateUrls,
          });
          const result = record.next
            ? { status: "retry" as const, at: record.next, error: record.error ?? undefined }
            : { status: "done" as const };
          performed.push({ job, result, data: { kind: "attempt", record } });
        }
      }
    };
    const concurrency = Math.max(1, ctx.webhookConcurrency || SEND_CONCURRENCY_DEFAULT);
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
    return performed;
  },
  async record(tx, performed, ctx) {
    const records = performed.flatMap((p) => (p.data?.kind === "attempt" ? [p.data.record] : []));
    const disabled = performed.flatMap((p) => (p.data?.kind === "disabled" ? [p.data.deliveryId] : []));
    if (disabled.length) {
      // A delivery whose endpoint was disabled after it was queued fails without being sent.
      await tx.webhookDelivery.updateMany({
        where: { id: { in: disabled }, status: "PENDING" },
        data: { status: "FAILED", completedAt: ctx.clock(), lastError: "endpoint disabled" },
      });
    }
    await recordAttempts(tx, records);
  },
});

/** Write attempts and move their deliveries, in one statement for the whole batch. */
async function recordAttempts(db: TransactionClient, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r) => ({
    delivery_id: r.delivery.id,
    attempt_id: r.attemptId,
    number: r.number,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt.toISOString(),
    duration_ms: r.durationMs,
    status_code: r.statusCode,
    error: r.error,
    excerpt: r.excerpt,
    succeeded: r.ok,
    status: r.status,
    next_at: r.next?.toISOString() ?? null,
    completed_at: r.status === "pending" ? null : r.finishedAt.toISOString(),
  }));
  await db.$executeRaw`
    WITH input AS (
       SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS t(
         delivery_id uuid, attempt_id uuid, number int, started_at timestamptz, finished_at timestamptz, duration_ms int,
         status_code int, error text, excerpt text, succeeded boolean, status text, next_at timestamptz, completed_at timestamptz)
     ), attempt AS (
       INSERT INTO webhook_attempts (id, delivery_id, number, started_at, duration_ms, status_code, error, response_excerpt, succeeded)
       SELECT i.attempt_id, i.delivery_id, i.number, i.started_at, i.duration_ms, i.status_code, i.error, i.excerpt, i.succeeded
         FROM input i
     )
     UPDATE webhook_deliveries d
        SET attempt_count = i.number, last_status_code = i.status_code, last_error = i.error,
            status = i.status::webhook_delivery_status, next_attempt_at = COALESCE(i.next_at, d.next_attempt_at),
            completed_at = i.completed_at, updated_at = i.finished_at
       FROM input i
      WHERE d.id = i.delivery_id`;
  for (const r of records) {
    if (!r.ok || r.delivery.endpoint.failingSince)
      await recordEndpointHealth(db, r.delivery.endpoint, r.ok, r.startedAt, r.finishedAt);
  }
}

/**
 * Track how long an endpoint has been failing. A subscription endpoint that has had nothing but
 * failures (4xx, 5xx, timeouts, refused connections) for 24 hours is deactivated; an admin
 * re-enables it. Content endpoints are never deactivated automatically (the spec gives them a
 * fixed retry budget instead).
 */
async function recordEndpointHealth(
  db: Db,
  endpoint: { id: string; kind: WebhookKind; failingSince: Date | null },
  ok: boolean,
  startedAt: Date,
  finished: Date,
): Promise<void> {
  if (ok) {
    if (endpoint.failingSince)
      await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
    return;
  }
  // Start the streak unless one is running (concurrent attempts may race: the earliest wins).
  await db.webhookEndpoint.updateMany({
    where: { id: endpoint.id, failingSince: null },
    data: { failingSince: startedAt },
  });
  if (endpoint.kind !== "SUBSCRIPTION") return;
  await db.webhookEndpoint.updateMany({
    where: { id: endpoint.id, active: true, failingSince: { lte: new Date(finished.getTime() - DEACTIVATE_AFTER_MS) } },
    data: { active: false, disabledAt: finished, disabledReason: "failing" },
  });
}

// ─── Retention ───────────────────────────────────────────────────────────────────────────────

/** Delete events (with their deliveries and attempts) older than the retention, once nothing of them is pending. */
export async function purgeWebhookLogs(
  db: Db,
  args: { now: Date; retentionDays: number },
): Promise<{ events: number }> {
  const cutoff = new Date(args.now.getTime() - args.retentionDays * 86_400_000);
  const deleted = await db.webhookEvent.deleteMany({
    where: { createdAt: { lt: cutoff }, deliveries: { none: { status: "PENDING" } } },
  });
  return { events: deleted.count };
}
