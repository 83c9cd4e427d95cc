/**
 * Which engine runs background work in this process (called once, from instrumentation.ts):
 * - Inngest configured: nothing runs here; inngest/hand-off.ts tells Inngest about new jobs and
 *   Inngest calls the functions served at /api/inngest.
 * - Otherwise: the local runner polls the jobs table and is woken after each commit that queues work.
 */
import { getEnv } from "../../env.js";
import { getDb } from "../db";
import type { JobDeps } from "../jobs/define";
import { LocalRunner } from "../jobs/local-runner";
import { setJobNotifier } from "../jobs/queue";
import { onStop } from "../lifecycle";
import { mailTransportFromEnv } from "../mail/transport";
import { sendWebhookRequest } from "../webhooks/transport";
import { JOBS } from "./job-list";

/** The two local runners: long jobs (imports) in a lane of their own, everything else in the other. */
const globalForJobs = globalThis as unknown as { mastheadRunners?: LocalRunner[]; mastheadRunnerDeps?: JobDeps };

/** What jobs use besides the database, from the configuration. */
export function jobDepsFromEnv(env = getEnv()): JobDeps {
  return {
    clock: () => new Date(),
    sendWebhook: sendWebhookRequest,
    mail: mailTransportFromEnv(env),
    allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    webhookRetentionDays: env.WEBHOOK_RETENTION_DAYS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    appUrl: env.APP_URL,
  };
}

/** Start the local runner unless Inngest runs background work or JOBS_LOCAL_RUNNER=false. */
export function startLocalRunner(): LocalRunner | undefined {
  const env = getEnv();
  if (env.inngestEnabled || !env.JOBS_LOCAL_RUNNER) return undefined;
  if (!globalForJobs.mastheadRunners) {
    const deps = jobDepsFromEnv(env);
    globalForJobs.mastheadRunnerDeps = deps;
    const options = { getDb, jobs: JOBS, deps, pollIntervalMs: env.JOBS_POLL_INTERVAL_MS };
    const runners = [new LocalRunner({ ...options, lane: "short" }), new LocalRunner({ ...options, lane: "long" })];
    globalForJobs.mastheadRunners = runners;
    onStop(stopLocalRunner);
    setJobNotifier(() => runners.forEach((runner) => runner.wake()));
  }
  globalForJobs.mastheadRunners.forEach((runner) => runner.start());
  return globalForJobs.mastheadRunners[0];
}

/** Stop the local runner (graceful shutdown), waiting for the pass under way; then close the mail transport's connections. */
async function stopLocalRunner(): Promise<void> {
  await Promise.all((globalForJobs.mastheadRunners ?? []).map((runner) => runner.stop()));
  globalForJobs.mastheadRunnerDeps?.mail.close?.();
}

export function backgroundEngineState(): { engine: "inngest" | "local"; running: boolean } {
  const env = getEnv();
  if (env.inngestEnabled) return { engine: "inngest", running: true };
  return { engine: "local", running: Boolean(globalForJobs.mastheadRunners) };
}
