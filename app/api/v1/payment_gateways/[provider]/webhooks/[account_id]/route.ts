// POST /api/v1/payment_gateways/{provider}/webhooks/{account_id} – a payment gateway's webhook for one account (signed by the gateway)
import { z } from "zod";

import { readBodyBytes } from "@/server/http/request-body";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { PG_INT_MAX, zWholeNumber } from "@/server/params.schema";
import { receiveGatewayWebhook } from "@/server/subscriptions/payments/gateway-events";

export const dynamic = "force-dynamic";

/** Razorpay's event bodies are a few kB; anything far larger is not a gateway's. */
const MAX_WEBHOOK_BYTES = 256 * 1024;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      params: z.object({
        provider: z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, "names no payment gateway"),
        account_id: zWholeNumber({ min: 1, max: PG_INT_MAX }),
      }),
      rawBody: true,
      produces: "any",
      rateLimit: { name: "payment_gateways.webhook", limit: 3000, windowSeconds: 60, by: "ip" },
      summary:
        "A payment gateway's webhook (paste this URL into the gateway's dashboard; provider razorpay or stripe). The raw body must carry the gateway's signature (Razorpay: X-Razorpay-Signature, HMAC-SHA256 under the account's webhook secret; Stripe: Stripe-Signature, at most 300 s old) → 401 otherwise, nothing stored. Stored once per gateway event id (X-Razorpay-Event-Id; Stripe's evt_ id): a repeated delivery answers 200 {status: \"duplicate\"} and changes nothing. Then processed as a job (docs/subscriptions.md \"Gateway webhooks\"): payments settle the pending subscription, renewals, failed renewals, cancellations, card changes, refunds and disputes reach the subscription, its invoices and the reports. 404 for an account without this gateway.",
    },
    async ({ req, db, params }) => {
      const bytes = await readBodyBytes(req, MAX_WEBHOOK_BYTES);
      const receipt = await receiveGatewayWebhook(db, {
        provider: params.provider,
        accountId: params.account_id,
        headers: req.headers,
        rawBody: bytes.toString("utf8"),
        now: new Date(),
      });
      return json({ status: receipt.status, event_id: receipt.eventId }, { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
