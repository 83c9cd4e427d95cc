/**
 * Outgoing webhook deliveries. Vocabulary:
 * - event: something happened (row in webhook_events; `id` is the spec's numeric event id);
 * - delivery: one event to one endpoint, PENDING until it SUCCEEDED or FAILED for good;
 * - attempt: one HTTP POST of a delivery (webhook_attempts).
 *
 * Both engines call these functions: the Inngest functions (inngest/functions) and the local
 * runner (server/jobs/local-runner.ts). A delivery is worked on only by whoever holds its lease
 * (locked_by, locked_until), so two processes never send the same attempt; an expired lease (a
 * crashed worker) is reclaimed. Every function takes the clock, so tests move time instead of
 * sleeping.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { WebhookKind } from "../generated/prisma/client";
import { EVENTS_BY_KIND, TEST_EVENT } from "./events.schema";
import { webhookRequest } from "./request";
import type { Sender } from "./transport";

export type Clock = () => Date;

/** Per-kind timing. Content follows the spec exactly; subscriptions keep trying for a day. */
export const DELIVERY_POLICY: Record<WebhookKind, { connectTimeoutMs: number; responseTimeoutMs: number; retryDelaysMs: number[] }> = {
  // Spec §8: connect 3 s, socket 3 s; 3 more attempts, 10 s apart.
  CONTENT: { connectTimeoutMs: 3_000, responseTimeoutMs: 3_000, retryDelaysMs: [10_000, 10_000, 10_000] },
  // Spec §8: connect 10 s, response 5 s. Retries are not specified: back off over a day, the
  // window after which a failing endpoint is deactivated anyway.
  SUBSCRIPTION: {
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 5_000,
    retryDelaysMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000],
  },
};

/** Subscription endpoints that have failed for this long are deactivated (spec §3, §8). */
export const DEACTIVATE_AFTER_MS = 24 * 3600_000;
/** How long a claim lasts: longer than the slowest attempt (connect + response timeouts). */
export const LEASE_MS = 60_000;

export function maxAttempts(kind: WebhookKind): number {
  return DELIVERY_POLICY[kind].retryDelaysMs.length + 1;
}

/** When attempt number `failed` (1-based) failed at `at`: the next attempt's time, or null when it was the last. */
export function nextAttemptAfter(kind: WebhookKind, failed: number, at: Date): Date | null {
  const delay = DELIVERY_POLICY[kind].retryDelaysMs[failed - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay);
}

/** A 2xx is success; 3xx (redirects are not followed), 4xx, 5xx and no response are failures. */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

// ─── Outbox ──────────────────────────────────────────────────────────────────────────────────

/**
 * Record an event and one pending delivery per active endpoint subscribed to it. Call it with the
 * transaction client of the change that causes the event: both commit or neither does. After the
 * commit, hand the returned ids to the engine (server/jobs/dispatch.ts) so delivery starts at once;
 * if that hand-off is lost, the sweep finds the deliveries anyway.
 */
export async function emitWebhookEvent(
  db: Db,
  args: { accountId: number; kind: WebhookKind; name: string; data: unknown; occurredAt: Date },
): Promise<{ eventId: bigint; deliveryIds: string[] }> {
  if (!EVENTS_BY_KIND[args.kind].includes(args.name)) throw new AppError("INTERNAL", `Unknown ${args.kind} webhook event ${args.name}`);
  const endpoints = await db.webhookEndpoint.findMany({
    where: { accountId: args.accountId, kind: args.kind, active: true, events: { has: args.name } },
    select: { id: true },
  });
  const event = await db.webhookEvent.create({
    data: { accountId: args.accountId, kind: args.kind, name: args.name, payload: args.data as object, occurredAt: args.occurredAt },
  });
  const deliveryIds: string[] = [];
  for (const endpoint of endpoints) {
    const delivery = await db.webhookDelivery.create({ data: { eventId: event.id, endpointId: endpoint.id, nextAttemptAt: args.occurredAt } });
    deliveryIds.push(delivery.id);
  }
  return { eventId: event.id, deliveryIds };
}

/** "Send test event": a webhook-test event to one endpoint, whatever it subscribes to. */
export async function sendTestEvent(db: Db, args: { accountId: number; endpointId: string; now: Date }): Promise<{ eventId: bigint; deliveryId: string }> {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: args.endpointId, accountId: args.accountId } });
  if (!endpoint) throw new AppError("NOT_FOUND", "Webhook not found.");
  const event = await db.webhookEvent.create({
    data: {
      accountId: args.accountId,
      kind: endpoint.kind,
      name: TEST_EVENT,
      payload: { message: "This is a test event from Masthead.", endpoint: { id: endpoint.id, url: endpoint.url } },
      occurredAt: args.now,
    },
  });
  const delivery = await db.webhookDelivery.create({ data: { eventId: event.id, endpointId: endpoint.id, nextAttemptAt: args.now } });
  return { eventId: event.id, deliveryId: delivery.id };
}

/** A new delivery of a completed delivery's event to the same endpoint ("redeliver"). */
export async function redeliver(db: Db, args: { accountId: number; deliveryId: string; now: Date }): Promise<{ deliveryId: string }> {
  const original = await db.webhookDelivery.findFirst({ where: { id: args.deliveryId, endpoint: { accountId: args.accountId } } });
  if (!original) throw new AppError("NOT_FOUND", "Delivery not found.");
  if (original.status === "PENDING") throw new AppError("CONFLICT", "This delivery is still being attempted.");
  const delivery = await db.webhookDelivery.create({
    data: { eventId: original.eventId, endpointId: original.endpointId, nextAttemptAt: args.now, redeliveryOf: original.id },
  });
  return { deliveryId: delivery.id };
}

// ─── Claiming and attempting ─────────────────────────────────────────────────────────────────

/**
 * Lease up to `limit` due deliveries to `workerId`. `FOR UPDATE SKIP LOCKED` lets several
 * processes claim at once without waiting on or taking each other's rows.
 */
export async function claimDueDeliveries(
  db: Db,
  args: { workerId: string; now: Date; limit: number; leaseMs?: number; dueBefore?: Date },
): Promise<string[]> {
  const until = new Date(args.now.getTime() + (args.leaseMs ?? LEASE_MS));
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE webhook_deliveries SET locked_by = $1, locked_until = $2
      WHERE id IN (
        SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= $5 AND (locked_until IS NULL OR locked_until < $3)
         ORDER BY next_attempt_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id`,
    args.workerId,
    until,
    args.now,
    args.limit,
    args.dueBefore ?? args.now,
  );
  return rows.map((r) => r.id);
}

export type AttemptOutcome =
  | { outcome: "succeeded"; statusCode: number; attempt: number }
  | { outcome: "retrying"; attempt: number; nextAttemptAt: string; statusCode: number | null; error: string | null }
  | { outcome: "failed"; attempt: number; statusCode: number | null; error: string | null }
  /** Not due, already done, or leased by another worker: nothing was sent. */
  | { outcome: "skipped"; reason: string; nextAttemptAt?: string };

type AttemptArgs = { workerId: string; clock: Clock; send: Sender; allowPrivate: boolean };

/** Deliveries with what an attempt needs: the event and the endpoint with its secrets. */
async function loadForAttempt(db: Db, ids: string[]) {
  return db.webhookDelivery.findMany({
    where: { id: { in: ids } },
    include: { event: true, endpoint: { omit: { secret: false, previousSecret: false } } },
  });
}
type LoadedDelivery = Awaited<ReturnType<typeof loadForAttempt>>[number];

/**
 * Make the next attempt of one delivery, if it is due and nobody else holds it; record it and
 * schedule the next one. Safe to call twice for the same delivery: only one call sends.
 */
export async function attemptDelivery(db: Db, args: AttemptArgs & { deliveryId: string }): Promise<AttemptOutcome> {
  const now = args.clock();
  const claimed = await db.webhookDelivery.updateMany({
    where: {
      id: args.deliveryId,
      status: "PENDING",
      nextAttemptAt: { lte: now },
      OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }, { lockedBy: args.workerId }],
    },
    data: { lockedBy: args.workerId, lockedUntil: new Date(now.getTime() + LEASE_MS) },
  });
  if (claimed.count === 0) {
    const current = await db.webhookDelivery.findUnique({ where: { id: args.deliveryId }, select: { status: true, nextAttemptAt: true } });
    if (!current) return { outcome: "skipped", reason: "not found" };
    if (current.status !== "PENDING") return { outcome: "skipped", reason: `already ${current.status.toLowerCase()}` };
    if (current.nextAttemptAt > now) return { outcome: "skipped", reason: "not due", nextAttemptAt: current.nextAttemptAt.toISOString() };
    return { outcome: "skipped", reason: "leased by another worker" };
  }
  const [delivery] = await loadForAttempt(db, [args.deliveryId]);
  if (!delivery) return { outcome: "skipped", reason: "not found" };
  return performAttempt(db, delivery, args);
}

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

/** Send one attempt of a delivery this worker holds (no database write). */
async function sendAttempt(delivery: LoadedDelivery, args: AttemptArgs): Promise<AttemptRecord> {
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
    allowPrivate: args.allowPrivate,
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
 * Write attempts and move their deliveries, in one statement for the whole batch, and only for
 * deliveries this worker still holds (a worker whose lease was taken over records nothing).
 */
async function recordAttempts(db: Db, workerId: string, records: AttemptRecord[]): Promise<void> {
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
  await db.$executeRawUnsafe(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
         delivery_id uuid, attempt_id uuid, number int, started_at timestamptz, finished_at timestamptz, duration_ms int,
         status_code int, error text, excerpt text, succeeded boolean, status text, next_at timestamptz, completed_at timestamptz)
     ), held AS (
       SELECT d.id FROM webhook_deliveries d JOIN input i ON i.delivery_id = d.id WHERE d.locked_by = $2 FOR UPDATE OF d
     ), attempt AS (
       INSERT INTO webhook_attempts (id, delivery_id, number, started_at, duration_ms, status_code, error, response_excerpt, succeeded)
       SELECT i.attempt_id, i.delivery_id, i.number, i.started_at, i.duration_ms, i.status_code, i.error, i.excerpt, i.succeeded
         FROM input i JOIN held h ON h.id = i.delivery_id
     )
     UPDATE webhook_deliveries d
        SET attempt_count = i.number, last_status_code = i.status_code, last_error = i.error, locked_by = NULL, locked_until = NULL,
            status = i.status::webhook_delivery_status, next_attempt_at = COALESCE(i.next_at, d.next_attempt_at),
            completed_at = i.completed_at, updated_at = i.finished_at
       FROM input i JOIN held h ON h.id = i.delivery_id
      WHERE d.id = i.delivery_id`,
    JSON.stringify(rows),
    workerId,
  );
  for (const r of records) {
    if (!r.ok || r.delivery.endpoint.failingSince) await recordEndpointHealth(db, r.delivery.endpoint, r.ok, r.startedAt, r.finishedAt);
  }
}

function outcomeOf(r: AttemptRecord): AttemptOutcome {
  if (r.ok) return { outcome: "succeeded", statusCode: r.statusCode!, attempt: r.number };
  if (r.next) return { outcome: "retrying", attempt: r.number, nextAttemptAt: r.next.toISOString(), statusCode: r.statusCode, error: r.error };
  return { outcome: "failed", attempt: r.number, statusCode: r.statusCode, error: r.error };
}

/** A delivery whose endpoint was disabled after it was queued fails without being sent. */
async function failForDisabledEndpoint(db: Db, delivery: LoadedDelivery, args: AttemptArgs): Promise<AttemptOutcome> {
  await db.webhookDelivery.updateMany({
    where: { id: delivery.id, lockedBy: args.workerId },
    data: { status: "FAILED", completedAt: args.clock(), lastError: "endpoint disabled", lockedBy: null, lockedUntil: null },
  });
  return { outcome: "failed", attempt: delivery.attemptCount, statusCode: null, error: "endpoint disabled" };
}

/** Send one attempt of a delivery this worker holds, and record it. */
async function performAttempt(db: Db, delivery: LoadedDelivery, args: AttemptArgs): Promise<AttemptOutcome> {
  if (!delivery.endpoint.active) return failForDisabledEndpoint(db, delivery, args);
  const record = await sendAttempt(delivery, args);
  await recordAttempts(db, args.workerId, [record]);
  return outcomeOf(record);
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
    if (endpoint.failingSince) await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
    return;
  }
  // Start the streak unless one is running (concurrent attempts may race: the earliest wins).
  await db.webhookEndpoint.updateMany({ where: { id: endpoint.id, failingSince: null }, data: { failingSince: startedAt } });
  if (endpoint.kind !== "SUBSCRIPTION") return;
  await db.webhookEndpoint.updateMany({
    where: { id: endpoint.id, active: true, failingSince: { lte: new Date(finished.getTime() - DEACTIVATE_AFTER_MS) } },
    data: { active: false, disabledAt: finished, disabledReason: "failing" },
  });
}

// ─── Retention ───────────────────────────────────────────────────────────────────────────────

/** Delete events (with their deliveries and attempts) older than the retention, once nothing of them is pending. */
export async function purgeWebhookLogs(db: Db, args: { now: Date; retentionDays: number }): Promise<{ events: number }> {
  const cutoff = new Date(args.now.getTime() - args.retentionDays * 86_400_000);
  const deleted = await db.webhookEvent.deleteMany({
    where: { createdAt: { lt: cutoff }, deliveries: { none: { status: "PENDING" } } },
  });
  return { events: deleted.count };
}

/** Due deliveries that no worker holds: the sweep's measure of what an event hand-off missed. */
export async function countStrandedDeliveries(db: Db, now: Date): Promise<number> {
  return db.webhookDelivery.count({
    where: { status: "PENDING", nextAttemptAt: { lte: now }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
  });
}

// ─── Batches (the local runner and the Inngest sweep) ────────────────────────────────────────

/**
 * Claim due deliveries and make their next attempts, at most `concurrency` at a time.
 * `overdueMs` limits it to deliveries due for at least that long (the Inngest sweep uses it to
 * pick up only what the per-delivery functions missed).
 */
export async function processDueDeliveries(
  db: Db,
  args: { workerId: string; clock: Clock; send: Sender; allowPrivate: boolean; limit: number; concurrency: number; overdueMs?: number },
): Promise<{ attempted: number; outcomes: Record<AttemptOutcome["outcome"], number> }> {
  const now = args.clock();
  const ids = await claimDueDeliveries(db, {
    workerId: args.workerId,
    now,
    limit: args.limit,
    dueBefore: new Date(now.getTime() - (args.overdueMs ?? 0)),
  });
  const outcomes: Record<AttemptOutcome["outcome"], number> = { succeeded: 0, retrying: 0, failed: 0, skipped: 0 };
  if (ids.length === 0) return { attempted: 0, outcomes };
  const deliveries = await loadForAttempt(db, ids);
  // Send with bounded concurrency, then record the whole batch in one statement: the database
  // cost per delivery stays small even on PGlite, which runs queries on this thread. The leases
  // keep every other worker away until the results are written.
  const records: AttemptRecord[] = [];
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const delivery = deliveries[next++]!;
      if (!delivery.endpoint.active) outcomes[(await failForDisabledEndpoint(db, delivery, args)).outcome]++;
      else records.push(await sendAttempt(delivery, args));
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency, deliveries.length) }, worker));
  await recordAttempts(db, args.workerId, records);
  for (const record of records) outcomes[outcomeOf(record).outcome]++;
  return { attempted: ids.length, outcomes };
}
