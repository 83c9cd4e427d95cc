/**
 * Putting work on the job list, from a service, in the service's own transaction:
 *
 *   await enqueueJob(tx, publishStoryJob, { storyId }, { runAt: publishAt, key: `story.publish:${id}` });
 *
 * The row commits with the change that causes it (or not at all), and once it has committed the
 * engine that runs jobs in this process is told (`afterCommit`): the local runner wakes, or
 * Inngest gets one event per job. Nothing else needs to happen in the route or the caller. If
 * that hand-off is lost (a crash right after the commit), the rows are in the database and the
 * runner's next poll or Inngest's sweep runs them.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import { afterCommit, isTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { JobDefinition } from "./define";

/** What the engine needs to know about a job that just committed. */
export type QueuedJob = { id: string; name: string; runAt: Date };
type JobNotifier = (jobs: QueuedJob[]) => void | Promise<void>;

const globalForJobs = globalThis as unknown as { mastheadJobNotifier?: JobNotifier };

/**
 * Who hears about new jobs in this process: the local runner or the Inngest glue sets it at start
 * (server/background/start.ts). Kept on globalThis because Next.js may load this module once per
 * bundle. Unset (scripts, tests): nobody is told, and jobs wait for whoever runs them.
 */
export function setJobNotifier(notifier: JobNotifier | undefined): void {
  globalForJobs.mastheadJobNotifier = notifier;
}

/** Jobs enqueued in each open transaction, told to the engine in one go after its commit. */
const queuedIn = new WeakMap<object, QueuedJob[]>();

function notifyAfterCommit(db: Db, jobs: QueuedJob[]): void {
  if (jobs.length === 0) return;
  if (!isTransaction(db)) {
    afterCommit(db, () => globalForJobs.mastheadJobNotifier?.(jobs));
    return;
  }
  const existing = queuedIn.get(db);
  if (existing) {
    existing.push(...jobs);
    return;
  }
  const list = [...jobs];
  queuedIn.set(db, list);
  afterCommit(db, () => globalForJobs.mastheadJobNotifier?.(list));
}

/**
 * Tell the engine about jobs a statement of the caller's own wrote (a write that puts its job row
 * in the same statement as its change: server/engagement/comment-write.ts), once `db` commits.
 */
export function announceJobs(db: Db, jobs: QueuedJob[]): void {
  notifyAfterCommit(db, jobs);
}

type EnqueueOptions = {
  /** When it is due (default: now). */
  runAt?: Date;
  /**
   * At most one pending job per key. With a key already pending, `onConflict` decides: "keep"
   * (default) leaves the pending job as it is; "replace" gives it this payload and time.
   */
  key?: string;
  onConflict?: "keep" | "replace";
  accountId?: number | null;
  now?: Date;
};

/** Put one job on the list, in `db`'s transaction. Returns its id (the pending one's, for a kept key). */
export async function enqueueJob<P>(
  db: Db,
  definition: JobDefinition<P>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<{ id: string }> {
  const [id] = await enqueueJobs(db, definition, [{ payload, ...options }]);
  return { id: id! };
}

/** Put several jobs of one kind on the list at once (one statement). */
export async function enqueueJobs<P>(
  db: Db,
  definition: JobDefinition<P>,
  items: (EnqueueOptions & { payload: P })[],
): Promise<string[]> {
  if (items.length === 0) return [];
  const rows = items.map((item) => {
    const parsed = definition.payload.safeParse(item.payload);
    if (!parsed.success)
      throw new AppError("INTERNAL", `Invalid payload for job ${definition.name}`, { cause: parsed.error });
    const now = item.now ?? new Date();
    return {
      id: randomUUID(),
      name: definition.name,
      key: item.key ?? null,
      account_id: item.accountId ?? null,
      payload: parsed.data,
      run_at: (item.runAt ?? now).toISOString(),
      now: now.toISOString(),
      replace: item.onConflict === "replace",
    };
  });
  const inserted: { id: string; run_at: Date }[] = [];
  const unkeyed = rows.filter((r) => r.key === null);
  if (unkeyed.length) {
    inserted.push(
      ...(await db.$queryRawUnsafe<{ id: string; run_at: Date }[]>(
        `INSERT INTO jobs (id, name, account_id, payload, status, run_at, created_at, updated_at)
         SELECT i.id, i.name, i.account_id, i.payload, 'pending', i.run_at, i.now, i.now
           FROM jsonb_to_recordset($1::jsonb) AS i(id uuid, name text, account_id int, payload jsonb, run_at timestamptz, now timestamptz)
         RETURNING id::text AS id, run_at`,
        JSON.stringify(unkeyed),
      )),
    );
  }
  // A key already pending: keep that job, or ("replace") give it this payload and time, unless a
  // worker holds it right now (it is running; its own run checks what is current).
  for (const row of rows.filter((r) => r.key !== null)) {
    const [kept] = await db.$queryRawUnsafe<{ id: string; run_at: Date }[]>(
      `INSERT INTO jobs (id, name, key, account_id, payload, status, run_at, created_at, updated_at)
       VALUES ($1::uuid, $2, $3, $4, $5::jsonb, 'pending', $6::timestamptz, $7::timestamptz, $7::timestamptz)
       ON CONFLICT (key) DO UPDATE
          SET payload = CASE WHEN $8 AND (jobs.locked_until IS NULL OR jobs.locked_until < $7::timestamptz) THEN EXCLUDED.payload ELSE jobs.payload END,
              run_at = CASE WHEN $8 AND (jobs.locked_until IS NULL OR jobs.locked_until < $7::timestamptz) THEN EXCLUDED.run_at ELSE jobs.run_at END,
              updated_at = EXCLUDED.updated_at
       RETURNING id::text AS id, run_at`,
      row.id,
      row.name,
      row.key,
      row.account_id,
      JSON.stringify(row.payload),
      row.run_at,
      row.now,
      row.replace,
    );
    if (kept) inserted.push(kept);
  }
  notifyAfterCommit(
    db,
    inserted.map((r) => ({ id: r.id, name: definition.name, runAt: new Date(r.run_at) })),
  );
  return inserted.map((r) => r.id);
}

/** Withdraw the pending job with this key, unless a worker is running it now. Returns whether one was cancelled. */
export async function cancelJob(db: Db, args: { key: string; now: Date }): Promise<boolean> {
  const count = await db.$executeRawUnsafe(
    `UPDATE jobs SET status = 'cancelled', key = NULL, completed_at = $2, updated_at = $2
      WHERE key = $1 AND status = 'pending' AND (locked_until IS NULL OR locked_until < $2)`,
    args.key,
    args.now,
  );
  return count > 0;
}
