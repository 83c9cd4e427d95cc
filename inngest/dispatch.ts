/** Hands committed deliveries to Inngest (see server/jobs/background.ts). */
import { registerInngestSender } from "../server/jobs/background";
import { inngest } from "./client";
import { webhookDeliveryRequested } from "./events";

registerInngestSender(async (deliveryIds) => {
  await inngest.send(deliveryIds.map((deliveryId) => webhookDeliveryRequested.create({ deliveryId })));
});
