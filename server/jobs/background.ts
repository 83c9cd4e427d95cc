/**
 * Which engine runs background work in this process, and the hand-off after a commit.
 * - Inngest configured: deliveries are handed to Inngest as events; the sweep covers lost hand-offs.
 * - Otherwise: the local runner polls the database; a hand-off just wakes it.
 */
import { getEnv } from "../../env.js";
import { getDb } from "../db";
import { sendWebhookRequest } from "../webhooks/transport";
import { LocalRunner } from "./local-runner";

const globalForJobs = globalThis as unknown as { mastheadRunner?: LocalRunner; mastheadInngestSend?: (deliveryIds: string[]) => Promise<void> };

/** Start the local runner unless Inngest runs background work (called from instrumentation.ts). */
export function startBackgroundWork(): LocalRunner | undefined {
  const env = getEnv();
  if (env.inngestEnabled || !env.JOBS_LOCAL_RUNNER) return undefined;
  globalForJobs.mastheadRunner ??= new LocalRunner({
    getDb,
    send: sendWebhookRequest,
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    pollIntervalMs: env.JOBS_POLL_INTERVAL_MS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    retentionDays: env.WEBHOOK_RETENTION_DAYS,
    log: (message, error) => console.error(`[masthead] ${message}: ${error instanceof Error ? error.message : String(error)}`),
  });
  globalForJobs.mastheadRunner.start();
  return globalForJobs.mastheadRunner;
}

/** Set by the Inngest glue (inngest/dispatch.ts) so server code can hand work over without importing Inngest. */
export function registerInngestSender(send: (deliveryIds: string[]) => Promise<void>): void {
  globalForJobs.mastheadInngestSend = send;
}

/**
 * After the transaction that created deliveries commits: start them now. Never throws: if the
 * hand-off fails, the deliveries are in the database and the sweep (or the next poll) sends them.
 */
export async function dispatchDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  try {
    if (getEnv().inngestEnabled) {
      if (!globalForJobs.mastheadInngestSend) await import("../../inngest/dispatch");
      await globalForJobs.mastheadInngestSend?.(deliveryIds);
    } else {
      globalForJobs.mastheadRunner?.wake();
    }
  } catch (error) {
    console.error(`[masthead] could not hand ${deliveryIds.length} deliveries to the background engine; the sweep will send them: ${String(error)}`);
  }
}

export function backgroundEngineState(): { engine: "inngest" | "local"; running: boolean } {
  const env = getEnv();
  if (env.inngestEnabled) return { engine: "inngest", running: true };
  return { engine: "local", running: Boolean(globalForJobs.mastheadRunner) };
}
