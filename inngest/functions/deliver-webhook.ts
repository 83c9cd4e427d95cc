/**
 * One webhook delivery, attempt by attempt. Each attempt is its own step and the wait between
 * attempts is `step.sleepUntil`, so retries survive restarts and deploys. The state lives in the
 * database (server/webhooks/deliveries.ts): a step that runs twice sends nothing twice.
 */
import { getEnv } from "../../env.js";
import { getDb } from "../../server/db";
import { attemptDelivery, type AttemptOutcome } from "../../server/webhooks/deliveries";
import { sendWebhookRequest } from "../../server/webhooks/transport";
import { inngest } from "../client";
import { webhookDeliveryRequested } from "../events";

/** More than the longest retry schedule (8 attempts for subscription webhooks). */
const MAX_STEPS = 12;

export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    triggers: [webhookDeliveryRequested],
    retries: 2,
    concurrency: { limit: 50 },
  },
  async ({ event, step, runId }) => {
    const { deliveryId } = event.data;
    let last: AttemptOutcome | undefined;
    for (let i = 1; i <= MAX_STEPS; i++) {
      last = await step.run(`attempt-${i}`, async () =>
        attemptDelivery(await getDb(), {
          deliveryId,
          workerId: `inngest:${runId}`,
          clock: () => new Date(),
          send: sendWebhookRequest,
          allowPrivate: getEnv().WEBHOOK_ALLOW_PRIVATE_URLS,
        }),
      );
      const wakeAt = last.outcome === "retrying" ? last.nextAttemptAt : last.outcome === "skipped" && last.reason === "not due" ? last.nextAttemptAt : undefined;
      if (!wakeAt) return last;
      await step.sleepUntil(`wait-${i}`, new Date(wakeAt));
    }
    return last;
  },
);
