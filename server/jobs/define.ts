/**
 * What a job is (the types every job definition and both engines share). The list of jobs is
 * server/background/job-list.ts; the engine that claims and runs them is server/jobs/engine.ts.
 *
 * Two kinds, by where the job's effect lands:
 * - `transactional`: everything the job does is a database write. `run` gets a transaction that
 *   already holds the job, and the job is marked done in that same transaction, so its effect and
 *   its completion commit together: killed at any point, the job runs again and its effect
 *   happens exactly once (scheduled publishing, log purges).
 * - `external`: the job talks to the outside world (an HTTP webhook, an SMTP server), which no
 *   transaction can take back. `perform` does the outside work for a batch of held jobs without
 *   writing; `record` then writes what happened, in the transaction that completes the jobs, for
 *   the jobs this worker still holds. A process killed between the two repeats the outside work
 *   (at least once), so receivers get idempotency keys (webhook-id, Message-ID).
 */
import { z } from "zod";

import type { Db, TransactionClient } from "../db/client";

export type Clock = () => Date;

/**
 * What jobs may use besides the database; built once from the configuration
 * (server/background/start.ts), replaced in tests. An area whose jobs talk to an outside service
 * adds that service here itself (declaration merging, next to the service's type):
 * server/mail/transport.ts adds `mail`, server/webhooks/transport.ts `sendWebhook`, so this file
 * names no area above the engine.
 */
export interface JobDeps {
  clock: Clock;
  allowPrivateUrls: boolean;
  webhookRetentionDays: number;
  webhookConcurrency: number;
  appUrl: string;
}

export type JobContext = JobDeps & { workerId: string };

/**
 * How a run ended, besides throwing (a thrown error is retried with the definition's backoff, and
 * fails the job when no attempt is left):
 * - nothing, or `{ status: "done" }`: the job is finished;
 * - `{ status: "retry", at }`: run it again at `at` (a retry schedule of the domain's own, such as
 *   a webhook's); `error` says why, for the operator.
 */
export type JobResult = { status: "done" } | { status: "retry"; at: Date; error?: string };

/** A job a worker holds: claimed, leased, its attempt counted. */
export type HeldJob<P> = { id: string; name: string; payload: P; attempts: number; accountId: number | null };

type JobDefinitionBase<P> = {
  /** Dotted, stable: it is stored in the database and names the Inngest function ("webhook.deliver"). */
  name: string;
  /** The payload's schema: checked when the job is enqueued and again when it runs. */
  payload: z.ZodType<P>;
  /** Attempts before a job that keeps throwing is FAILED (default 5). */
  maxAttempts?: number;
  /** Wait before attempt n + 1 after attempt n threw (default 10 s × 2^(n − 1), at most an hour). */
  backoffMs?(attempt: number): number;
  /** How long a claim lasts (default 60 s): longer than the slowest run, or a second worker starts it. */
  leaseMs?: number;
  /** Recurring: the engine keeps one pending run, due this long after the previous one ended. */
  everyMs?: number;
  /** Runs at once per Inngest function (default 10). */
  concurrency?: number;
  /**
   * Runs for minutes (an import of a large file): the local runner gives such jobs a lane of
   * their own (./local-runner.ts), so mail, webhooks and scheduled work never wait behind one.
   */
  long?: boolean;
  /** The job failed for good (no attempt left): record it in the domain (a mail marked FAILED). */
  onFailed?(tx: TransactionClient, job: HeldJob<P>, error: string, ctx: JobContext): Promise<void>;
};

type TransactionalJob<P> = JobDefinitionBase<P> & {
  kind: "transactional";
  run(tx: TransactionClient, job: HeldJob<P>, ctx: JobContext): Promise<JobResult | void>;
};

/**
 * One job's outside work failed: retried with the definition's backoff, or failed at once when
 * `permanent` (the other side refused for good, e.g. an SMTP 5xx for the recipient: retrying
 * would only ask the same question again).
 */
type PerformError = { status: "error"; error: string; permanent?: boolean };

/** One job's outside work: its result, and what `record` needs to write it down. */
export type Performed<P, D> = { job: HeldJob<P>; result: JobResult | PerformError; data?: D };

type ExternalJob<P, D> = JobDefinitionBase<P> & {
  kind: "external";
  perform(db: Db, jobs: HeldJob<P>[], ctx: JobContext): Promise<Performed<P, D>[]>;
  record(tx: TransactionClient, performed: Performed<P, D>[], ctx: JobContext): Promise<void>;
};

export type JobDefinition<P = unknown, D = unknown> = TransactionalJob<P> | ExternalJob<P, D>;

/** Identity function that types a definition. */
export function defineJob<P, D = never>(definition: JobDefinition<P, D>): JobDefinition<P, D> {
  return definition;
}

/** A sweep's definition: its name, how often it runs, and its run (no payload). */
type SweepDefinition = Omit<TransactionalJob<Record<string, never>>, "kind" | "payload" | "concurrency"> & {
  everyMs: number;
};

/** A sweep: a transactional job with no payload that the engine keeps due every `everyMs`, one run at a time. */
export function defineSweepJob(definition: SweepDefinition): JobDefinition<Record<string, never>, never> {
  return { kind: "transactional", payload: z.object({}).strict(), concurrency: 1, ...definition };
}
