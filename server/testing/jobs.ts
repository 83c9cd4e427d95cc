/**
 * Running background jobs in integration tests: the real engine (server/jobs/engine.ts) with
 * dependencies a test controls (a clock it moves, a mail transport that records, the real
 * webhook sender allowed to reach 127.0.0.1).
 */
import { JOBS } from "../background/job-list";
import type { Db } from "../db/client";
import type { JobDeps } from "../jobs/define";
import { runDueJobs, runJobById, type JobRunState } from "../jobs/engine";
import type { MailTransport, OutgoingMail } from "../mail/transport";
import { sendWebhookRequest } from "../webhooks/transport";

/** A mail transport that keeps what it is given (and can be told to refuse). */
export function recordingTransport(): MailTransport & {
  sent: OutgoingMail[];
  refuse: (reason: string | null) => void;
} {
  const sent: OutgoingMail[] = [];
  let refusal: string | null = null;
  return {
    name: "test",
    sent,
    refuse: (reason) => {
      refusal = reason;
    },
    async send(mail) {
      if (refusal) throw new Error(refusal);
      sent.push(mail);
    },
  };
}

export function testJobDeps(overrides: Partial<JobDeps> = {}): JobDeps {
  return {
    clock: () => new Date(),
    sendWebhook: sendWebhookRequest,
    mail: recordingTransport(),
    allowPrivateUrls: true,
    webhookRetentionDays: 30,
    webhookConcurrency: 4,
    appUrl: "http://localhost:3000",
    ...overrides,
  };
}

/** Run everything due now (by `deps.clock`), as one pass of a runner would. */
export async function runJobsNow(
  db: Db,
  deps: JobDeps = testJobDeps(),
  workerId = "test",
): Promise<{ claimed: number }> {
  return runDueJobs(db, { jobs: JOBS, deps, workerId });
}

/** The pending or finished job of `name` whose payload field `field` is `value`. */
export async function findJob(db: Db, name: string, field: string, value: string) {
  return db.job.findFirstOrThrow({
    where: { name, payload: { path: [field], equals: value } },
    orderBy: { createdAt: "desc" },
  });
}

/** Run the job of `name` with `payload[field] = value`, if it is due and free, and say what became of it. */
export async function runJobFor(
  db: Db,
  args: { name: string; field: string; value: string; deps?: JobDeps; workerId?: string },
): Promise<JobRunState> {
  const job = await findJob(db, args.name, args.field, args.value);
  return runJobById(db, {
    jobs: JOBS,
    jobId: job.id,
    deps: args.deps ?? testJobDeps(),
    workerId: args.workerId ?? "test",
  });
}
