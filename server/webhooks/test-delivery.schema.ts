/**
 * "Send a test event" (dashboard, owners): the request Masthead would send an endpoint for a
 * chosen event, shown in full with how to check its signatures, and the receiver's answer when it
 * was sent. zod only, for the form.
 */
import { z } from "zod";

export const ZTestDeliveryInput = z.object({
  id: z.uuid("is not a webhook id"),
  event: z.string().trim().min(1, "choose an event").max(100),
});
export type TTestDeliveryInput = z.input<typeof ZTestDeliveryInput>;

/**
 * What happened to the request: `answered` (the receiver answered with `statusCode`),
 * `no_response` (sent, but no answer: refused connection, timeout…), `not_sent` (the address is
 * not allowed, does not resolve, or the endpoint is disabled; `error` says which).
 */
const ZTestDeliveryOutcome = z.enum(["answered", "no_response", "not_sent"]);

export const ZTestDeliveryView = z.object({
  /** The test's entry in the endpoint's delivery log (X-Masthead-Delivery-Id of the request). */
  deliveryId: z.uuid(),
  event: z.string(),
  eventDescription: z.string(),
  request: z.object({
    method: z.literal("POST"),
    url: z.string(),
    headers: z.array(z.object({ name: z.string(), value: z.string() })),
    body: z.string(),
  }),
  signing: z.object({
    /** False for an endpoint made without a secret: X-Qt-Signature is empty, no webhook-signature. */
    signed: z.boolean(),
    /** What webhook-signature signs: `webhook-id`.`webhook-timestamp`.`body`. */
    standardSignedContent: z.string(),
    /** v1 entries in webhook-signature: more than one while a rotated secret still signs. */
    standardSignatureCount: z.number().int(),
  }),
  result: z.object({
    outcome: ZTestDeliveryOutcome,
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable(),
  }),
});
export type TTestDeliveryView = z.infer<typeof ZTestDeliveryView>;

/** Where the built-in test receiver lives (app/api/webhooks/test-receiver/[token]): APP_URL + this + "/" + token. */
export const TEST_RECEIVER_PATH = "/api/webhooks/test-receiver";

/** The account's built-in test receiver (test-receiver.ts): its URL and the requests it kept, newest first. */
export const ZTestReceiverView = z.object({
  url: z.string(),
  /** How many requests are kept: older ones are dropped. */
  kept: z.number().int(),
  receipts: z.array(
    z.object({
      id: z.string(),
      receivedAt: z.date(),
      headers: z.array(z.object({ name: z.string(), value: z.string() })),
      body: z.string(),
      bodyBytes: z.number().int(),
      bodyTruncated: z.boolean(),
      signatureValid: z.boolean(),
      signatureNote: z.string(),
      statusCode: z.number().int(),
    }),
  ),
});
export type TTestReceiverView = z.infer<typeof ZTestReceiverView>;
