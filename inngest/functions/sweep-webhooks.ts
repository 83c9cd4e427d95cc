/**
 * Safety net, every minute: attempt deliveries that are overdue and held by nobody (an event
 * hand-off that never reached Inngest, a run that died). The lease in the database keeps this
 * from racing the per-delivery functions.
 */
import { getEnv } from "../../env.js";
import { getDb } from "../../server/db";
import { processDueDeliveries } from "../../server/webhooks/deliveries";
import { sendWebhookRequest } from "../../server/webhooks/transport";
import { inngest } from "../client";

export const sweepWebhooks = inngest.createFunction(
  { id: "sweep-webhooks", triggers: [{ cron: "* * * * *" }], concurrency: { limit: 1 } },
  async ({ step, runId }) =>
    step.run("attempt-overdue", async () => {
      const env = getEnv();
      return processDueDeliveries(await getDb(), {
        workerId: `inngest-sweep:${runId}`,
        clock: () => new Date(),
        send: sendWebhookRequest,
        allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_URLS,
        limit: 500,
        concurrency: env.WEBHOOK_CONCURRENCY,
        overdueMs: 60_000,
      });
    }),
);
