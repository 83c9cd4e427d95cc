/** Every Inngest function, served by app/api/inngest/route.ts. */
import { deliverWebhook } from "./functions/deliver-webhook";
import { purgeWebhookLogsFunction } from "./functions/purge-webhook-logs";
import { sendPendingEmailsFunction } from "./functions/send-pending-emails";
import { sweepWebhooks } from "./functions/sweep-webhooks";

export { inngest } from "./client";

export const functions = [deliverWebhook, sweepWebhooks, purgeWebhookLogsFunction, sendPendingEmailsFunction];
