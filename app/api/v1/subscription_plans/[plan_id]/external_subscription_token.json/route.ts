// POST /api/v1/subscription_plans/{plan_id}/external_subscription_token.json – the gateway's id for a plan (server API; deprecated)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZExternalTokenBody, ZPlanIdParams } from "@/server/subscriptions/checkout/checkout.schema";
import { externalSubscriptionToken } from "@/server/subscriptions/checkout/preview";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "server",
      params: ZPlanIdParams,
      body: ZExternalTokenBody,
      rateLimit: { name: "checkout.external_token", limit: 600, windowSeconds: 60, by: "key" },
      summary:
        "Deprecated (the spec's preview covers it; answered with `Deprecation: true`). {type (a payment_type), attempt_token?} → {subscription: {id}}: the gateway order/subscription id of the preview named by attempt_token, or one prepared for the plan's default price. 404 for another account's or a disabled plan.",
    },
    async ({ db, account, params, body }) =>
      json(
        await externalSubscriptionToken(db, {
          accountId: account.id,
          planId: params.plan_id,
          paymentType: body.type,
          attemptToken: body.attempt_token,
          now: new Date(),
        }),
        { headers: { Deprecation: "true", "Cache-Control": "no-store" } },
      ),
  ),
});
