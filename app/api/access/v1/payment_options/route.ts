// GET /api/access/v1/payment_options – the account's enabled payment gateways as a reader's browser needs them (client key)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { listPaymentOptions } from "@/server/subscriptions/payments/gateways";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client",
      query: ZClientQuery,
      cors: true,
      rateLimit: { name: "payment_options.get", limit: 300, windowSeconds: 60, by: "ip+key" },
      summary:
        "{payment_options: {<provider>: {app_key, environment, payment_types, …}}}: the account's enabled payment gateways that readers may pay through (e.g. razorpay with payment_types razorpay and razorpay_recurring; stripe with stripe and stripe_recurring plus js_url, where the browser loads Stripe.js). The app key is the gateway's public key; no secret is ever included. The browser SDK's getPaymentOptions calls it.",
    },
    async ({ db, account }) =>
      json({ payment_options: await listPaymentOptions(db, account.id) }, { headers: { "Cache-Control": "no-store" } }),
  ),
});
