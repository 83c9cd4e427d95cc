/**
 * Which engine runs background work in this process (called once, from instrumentation.ts):
 * - Inngest configured: nothing runs here; inngest/hand-off.ts tells Inngest about new jobs and
 *   Inngest calls the functions served at /api/inngest.
 * - Otherwise: the local runner polls the jobs table and is woken after each commit that queues work.
 */
import { getEnv } from "../../env.js";
import { getDb } from "../db";
import { onStop } from "../lifecycle";
import { mailTransportFromEnv } from "../mail/transport";
import { sendWebhookRequest } from "../webhooks/transport";
import type { JobDeps } from "./define";
import { LocalRunner } from "./local-runner";
import { setJobNotifier } from "./queue";

const globalForJobs = globalThis as unknown as { mastheadRunner?: LocalRunner };

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
  if (!globalForJobs.mastheadRunner) {
    const runner = new LocalRunner({ getDb, deps: jobDepsFromEnv(env), pollIntervalMs: env.JOBS_POLL_INTERVAL_MS });
    globalForJobs.mastheadRunner = runner;
    onStop(stopLocalRunner);
    setJobNotifier(() => runner.wake());
  }
  globalForJobs.mastheadRunner.start();
  return globalForJobs.mastheadRunner;
}

/** Stop the local runner (graceful shutdown), waiting for the pass under way. */
export async function stopLocalRunner(): Promise<void> {
  await globalForJobs.mastheadRunner?.stop();
}

export function backgroundEngineState(): { engine: "inngest" | "local"; running: boolean } {
  const env = getEnv();
  if (env.inngestEnabled) return { engine: "inngest", running: true };
  return { engine: "local", running: Boolean(globalForJobs.mastheadRunner) };
}
