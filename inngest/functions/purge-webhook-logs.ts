/** Hourly: delete webhook events, deliveries and attempts older than WEBHOOK_RETENTION_DAYS (30). */
import { getEnv } from "../../env.js";
import { getDb } from "../../server/db";
import { purgeWebhookLogs } from "../../server/webhooks/deliveries";
import { inngest } from "../client";

export const purgeWebhookLogsFunction = inngest.createFunction(
  { id: "purge-webhook-logs", triggers: [{ cron: "17 * * * *" }], concurrency: { limit: 1 } },
  async ({ step }) =>
    step.run("purge", async () => purgeWebhookLogs(await getDb(), { now: new Date(), retentionDays: getEnv().WEBHOOK_RETENTION_DAYS })),
);
