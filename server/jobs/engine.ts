/**
 * The job engine: claims due jobs with a lease, runs them through their definitions, and records
 * how each run ended. It knows no job of its own: the caller passes the list (a `JobList`, built
 * once at the top, server/background/job-list.ts), so no area's jobs are imported from here.
 * Both engines call it and nothing else:
 * - the local runner (./local-runner.ts) calls `runDueJobs` in a loop, woken after each commit
 *   that enqueues work;
 * - Inngest runs one function per job kind (inngest/functions/run-job.ts), which calls
 *   `runJobById` step by step and sleeps until the job is due again, and a sweep
 *   (inngest/functions/sweep-jobs.ts) that calls `runDueJobs` for what a run missed.
 *
 * Guarantees, whoever runs it:
 * - a job is run by one worker at a time: claims use FOR UPDATE SKIP LOCKED and a lease, and the
 *   completion is written only while the worker still holds the job;
 * - nothing is lost when a process dies: the lease expires and another worker claims the job;
 * - a transactional job's effect commits with its completion, so it happens exactly once;
 * - a job that keeps failing is retried with backoff, then FAILED (`onFailed` records why); an
 *   external job whose other side refused for good (`permanent`) is FAILED at once.
 */
import { randomUUID } from "node:crypto";

import type { Db, TransactionClient } from "../db/client";
import { withTransaction } from "../db/transaction";
import { log } from "../log";
import type { HeldJob, JobContext, JobDefinition, JobDeps, JobResult, Performed } from "./define";
import { enqueueJob } from "./queue";

const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_MAX_ATTEMPTS = 5;

function defaultBackoffMs(attempt: number): number {
  return Math.min(3600_000, 10_000 * 2 ** Math.max(0, attempt - 1));
}

/** A new worker id: who holds a job, in the jobs table and in the logs. */
export function newWorkerId(prefix: string): string {
  return `${prefix}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

type ClaimedRow = {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  account_id: number | null;
  run_at: Date;
};

/** The jobs an engine runs: every definition, and each by its name. */
export type JobList = { readonly all: readonly JobDefinition[]; readonly byName: ReadonlyMap<string, JobDefinition> };

/** A job list from its definitions (names are unique: a second definition of a name is an error). */
export function jobList(definitions: readonly JobDefinition[]): JobList {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  if (byName.size !== definitions.length) throw new Error("Two job definitions share a name.");
  return { all: definitions, byName };
}

/** Which jobs a worker takes: every job, or only the long ones, or all but them (local-runner.ts). */
export type JobLane = "all" | "long" | "short";

const inLane = (d: JobDefinition, lane: JobLane) => lane === "all" || (lane === "long") === Boolean(d.long);

/** The lane's jobs by name, with their lease (the claim takes only these names). */
const leases = (jobs: JobList, lane: JobLane = "all") =>
  Object.fromEntries(jobs.all.filter((d) => inLane(d, lane)).map((d) => [d.name, d.leaseMs ?? DEFAULT_LEASE_MS]));

/**
 * Lease up to `limit` due jobs (optionally: only those due for at least `overdueMs`, or one job by
 * id) to `workerId`, counting an attempt for each. Jobs of unknown kinds are left alone.
 */
export async function claimJobs(
  db: Db,
  args: {
    jobs: JobList;
    workerId: string;
    now: Date;
    limit: number;
    overdueMs?: number;
    jobId?: string;
    lane?: JobLane;
  },
): Promise<ClaimedRow[]> {
  const dueBefore = new Date(args.now.getTime() - (args.overdueMs ?? 0));
  const rows = await db.$queryRawUnsafe<ClaimedRow[]>(
    `UPDATE jobs j
        SET locked_by = $1,
            locked_until = $2::timestamptz + make_interval(secs => (COALESCE(($5::jsonb ->> j.name)::numeric, ${DEFAULT_LEASE_MS}) / 1000)::double precision),
            attempts = j.attempts + 1, updated_at = $2
      WHERE j.id IN (
        SELECT id FROM jobs
         WHERE status = 'pending' AND run_at <= $3 AND (locked_until IS NULL OR locked_until < $2)
           AND name IN (SELECT jsonb_object_keys($5::jsonb)) ${args.jobId ? "AND id = $6::uuid" : ""}
         ORDER BY run_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
      RETURNING j.id::text AS id, j.name, j.payload, j.attempts, j.account_id, j.run_at`,
    args.workerId,
    args.now,
    dueBefore,
    args.limit,
    JSON.stringify(leases(args.jobs, args.lane)),
    ...(args.jobId ? [args.jobId] : []),
  );
  // Oldest due first (RETURNING keeps no order).
  return rows.sort((a, b) => new Date(a.run_at).getTime() - new Date(b.run_at).getTime() || a.id.localeCompare(b.id));
}

// ─── Finishing ───────────────────────────────────────────────────────────────────────────────

type Finish = { id: string; status: "pending" | "succeeded" | "failed"; runAt: Date | null; error: string | null };

/**
 * Write how runs ended, for the jobs `workerId` still holds (one statement), and return those.
 * Ended jobs free their key; a recurring job that ended gets its next run.
 */
async function finishJobs(
  tx: TransactionClient,
  definition: JobDefinition,
  workerId: string,
  now: Date,
  finishes: Finish[],
): Promise<Set<string>> {
  if (finishes.length === 0) return new Set();
  const rows = finishes.map((f) => ({
    id: f.id,
    status: f.status,
    run_at: f.runAt?.toISOString() ?? null,
    last_error: f.error,
    completed_at: f.status === "pending" ? null : now.toISOString(),
  }));
  const done = await tx.$queryRawUnsafe<{ id: string; name: string; status: string }[]>(
    `UPDATE jobs j
        SET status = i.status::job_status, run_at = COALESCE(i.run_at, j.run_at), last_error = i.last_error,
            locked_by = NULL, locked_until = NULL, completed_at = i.completed_at,
            key = CASE WHEN i.status = 'pending' THEN j.key ELSE NULL END, updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS i(id uuid, status text, run_at timestamptz, last_error text, completed_at timestamptz)
      WHERE j.id = i.id AND j.locked_by = $3
      RETURNING j.id::text AS id, j.name, i.status`,
    JSON.stringify(rows),
    now,
    workerId,
  );
  for (const row of done) {
    if (row.status !== "pending" && definition.everyMs) {
      await scheduleRecurring(tx, definition, new Date(now.getTime() + definition.everyMs), now);
    }
  }
  return new Set(done.map((r) => r.id));
}

function recurringKey(name: string): string {
  return `every:${name}`;
}

async function scheduleRecurring(db: Db, definition: JobDefinition, runAt: Date, now: Date): Promise<void> {
  await enqueueJob(db, definition, {}, { key: recurringKey(definition.name), runAt, now });
}

/** Make sure every recurring job has its pending run (at start, and from the sweep). */
export async function ensureRecurringJobs(db: Db, jobs: JobList, now: Date): Promise<void> {
  for (const definition of jobs.all) {
    if (definition.everyMs) await scheduleRecurring(db, definition, now, now);
  }
}

type Failure = { job: HeldJob<unknown>; error: string; permanent?: boolean };

/** A run threw, or its worker cannot use the result: retry with backoff, or fail it for good. */
function failureOf(definition: JobDefinition, failure: Failure, now: Date): Finish {
  const { job, error } = failure;
  const max = definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (failure.permanent || job.attempts >= max) return { id: job.id, status: "failed", runAt: null, error };
  const backoff = (definition.backoffMs ?? defaultBackoffMs)(job.attempts);
  return { id: job.id, status: "pending", runAt: new Date(now.getTime() + backoff), error };
}

function finishOf(job: HeldJob<unknown>, result: JobResult | void): Finish {
  if (result && result.status === "retry") {
    return { id: job.id, status: "pending", runAt: result.at, error: result.error ?? null };
  }
  return { id: job.id, status: "succeeded", runAt: null, error: null };
}

/** Record failures (outside the failed run's transaction, which rolled back), and onFailed for the last ones. */
async function recordFailures(db: Db, definition: JobDefinition, failed: Failure[], ctx: JobContext): Promise<void> {
  if (failed.length === 0) return;
  const now = ctx.clock();
  for (const { job, error, permanent } of failed)
    log.warn("job attempt failed", {
      job: job.id,
      name: job.name,
      attempt: job.attempts,
      error,
      ...(permanent ? { permanent: true } : {}),
    });
  await withTransaction(db, async (tx) => {
    const finishes = failed.map((f) => failureOf(definition, f, now));
    const held = await finishJobs(tx, definition, ctx.workerId, now, finishes);
    for (const f of failed) {
      const finish = finishes.find((x) => x.id === f.job.id);
      if (finish?.status === "failed" && held.has(f.job.id) && definition.onFailed) {
        await definition.onFailed(tx, f.job, f.error, ctx);
      }
    }
  });
}

// ─── Running ─────────────────────────────────────────────────────────────────────────────────

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/** Parse held rows' payloads; a payload the definition no longer accepts fails that job. */
function toHeld(definition: JobDefinition, rows: ClaimedRow[]) {
  const held: HeldJob<unknown>[] = [];
  const invalid: { job: HeldJob<unknown>; error: string }[] = [];
  for (const row of rows) {
    const job = { id: row.id, name: row.name, payload: row.payload, attempts: row.attempts, accountId: row.account_id };
    const parsed = definition.payload.safeParse(row.payload);
    if (parsed.success) held.push({ ...job, payload: parsed.data });
    else invalid.push({ job: { ...job, attempts: Number.MAX_SAFE_INTEGER }, error: "invalid payload" });
  }
  return { held, invalid };
}

/** Run a transactional job: effect and completion in one transaction, or neither. */
async function runTransactional(
  db: Db,
  definition: Extract<JobDefinition, { kind: "transactional" }>,
  job: HeldJob<unknown>,
  ctx: JobContext,
): Promise<"done" | "failed" | "lost"> {
  try {
    const kept = await withTransaction(db, async (tx) => {
      // Lock the job row first: while this transaction is open no other worker can claim it
      // (their claims skip locked rows), and a lease that expired meanwhile is noticed here.
      const [mine] = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id::text AS id FROM jobs WHERE id = $1::uuid AND locked_by = $2 AND status = 'pending' FOR UPDATE`,
        job.id,
        ctx.workerId,
      );
      if (!mine) return false;
      const result = await definition.run(tx, job, ctx);
      await finishJobs(tx, definition, ctx.workerId, ctx.clock(), [finishOf(job, result)]);
      return true;
    });
    return kept ? "done" : "lost";
  } catch (error) {
    await recordFailures(db, definition, [{ job, error: errorText(error) }], ctx);
    return "failed";
  }
}

/** Run a batch of external jobs: outside work first, then one transaction recording it. */
async function runExternal(
  db: Db,
  definition: Extract<JobDefinition, { kind: "external" }>,
  jobs: HeldJob<unknown>[],
  ctx: JobContext,
): Promise<void> {
  let performed: Performed<unknown, unknown>[];
  try {
    performed = await definition.perform(db, jobs, ctx);
  } catch (error) {
    await recordFailures(
      db,
      definition,
      jobs.map((job) => ({ job, error: errorText(error) })),
      ctx,
    );
    return;
  }
  const ok = performed.filter((p) => p.result.status !== "error");
  const errors = performed.flatMap((p) =>
    p.result.status === "error" ? [{ job: p.job, error: p.result.error, permanent: p.result.permanent }] : [],
  );
  if (ok.length) {
    await withTransaction(db, async (tx) => {
      const mine = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id::text AS id FROM jobs WHERE id = ANY($1::uuid[]) AND locked_by = $2 AND status = 'pending' FOR UPDATE`,
        ok.map((p) => p.job.id),
        ctx.workerId,
      );
      const held = new Set(mine.map((r) => r.id));
      const kept = ok.filter((p) => held.has(p.job.id));
      await definition.record(tx, kept, ctx);
      await finishJobs(
        tx,
        definition,
        ctx.workerId,
        ctx.clock(),
        kept.map((p) => finishOf(p.job, p.result as JobResult)),
      );
    });
  }
  await recordFailures(db, definition, errors, ctx);
}

async function runClaimed(db: Db, jobs: JobList, rows: ClaimedRow[], ctx: JobContext): Promise<void> {
  const byName = new Map<string, ClaimedRow[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  for (const [name, group] of byName) {
    const definition = jobs.byName.get(name);
    if (!definition) continue; // claimJobs only claims known kinds
    const { held, invalid } = toHeld(definition, group);
    await recordFailures(db, definition, invalid, ctx);
    if (definition.kind === "external") await runExternal(db, definition, held, ctx);
    else for (const job of held) await runTransactional(db, definition, job, ctx);
  }
}

/**
 * Claim and run what is due, in batches of `limit`, until nothing due is left or `maxBatches`
 * ran. `overdueMs`: only jobs due for at least that long (Inngest's sweep leaves fresh jobs to
 * their own runs). Returns how many jobs were claimed.
 */
export async function runDueJobs(
  db: Db,
  args: {
    jobs: JobList;
    deps: JobDeps;
    workerId: string;
    limit?: number;
    overdueMs?: number;
    maxBatches?: number;
    lane?: JobLane;
  },
): Promise<{ claimed: number }> {
  const ctx: JobContext = { ...args.deps, workerId: args.workerId };
  let claimed = 0;
  for (let batch = 0; batch < (args.maxBatches ?? 100); batch++) {
    const rows = await claimJobs(db, {
      jobs: args.jobs,
      workerId: args.workerId,
      now: ctx.clock(),
      limit: args.limit ?? 64,
      overdueMs: args.overdueMs,
      lane: args.lane,
    });
    if (rows.length === 0) break;
    claimed += rows.length;
    await runClaimed(db, args.jobs, rows, ctx);
  }
  return { claimed };
}

export type JobRunState =
  | { state: "succeeded" | "failed" | "cancelled" | "missing" }
  /** Pending: due at `until` (not due yet, or retrying), or held by another worker until then. */
  | { state: "waiting" | "held"; until: string };

/**
 * Run one job now if it is due and free (Inngest's per-job function), and say what became of it:
 * the function sleeps until `until` when it is still pending.
 */
export async function runJobById(
  db: Db,
  args: { jobs: JobList; jobId: string; deps: JobDeps; workerId: string },
): Promise<JobRunState> {
  const ctx: JobContext = { ...args.deps, workerId: args.workerId };
  const rows = await claimJobs(db, {
    jobs: args.jobs,
    workerId: args.workerId,
    now: ctx.clock(),
    limit: 1,
    jobId: args.jobId,
  });
  if (rows.length) await runClaimed(db, args.jobs, rows, ctx);
  const job = await db.job.findUnique({
    where: { id: args.jobId },
    select: { status: true, runAt: true, lockedBy: true, lockedUntil: true },
  });
  if (!job) return { state: "missing" };
  if (job.status !== "PENDING") return { state: job.status.toLowerCase() as "succeeded" | "failed" | "cancelled" };
  const now = ctx.clock();
  if (job.lockedBy && job.lockedUntil && job.lockedUntil > now)
    return { state: "held", until: job.lockedUntil.toISOString() };
  return { state: "waiting", until: job.runAt.toISOString() };
}

// ─── Operations ──────────────────────────────────────────────────────────────────────────────

/** Pending jobs due for more than `overdueMs` that no worker holds: a number that grows means work is stuck. */
export async function countOverdueJobs(db: Db, args: { now: Date; overdueMs?: number }): Promise<number> {
  const before = new Date(args.now.getTime() - (args.overdueMs ?? 60_000));
  return db.job.count({
    where: {
      status: "PENDING",
      runAt: { lte: before },
      OR: [{ lockedUntil: null }, { lockedUntil: { lt: args.now } }],
    },
  });
}
