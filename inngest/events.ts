/** Every event Masthead sends to Inngest, declared once: used as a trigger and with `.create()`. */
import { eventType } from "inngest";
import { z } from "zod";

/** A webhook delivery is ready for its first attempt (or was redelivered). */
export const webhookDeliveryRequested = eventType("masthead/webhook.delivery.requested", {
  schema: z.object({ deliveryId: z.uuid() }),
});
