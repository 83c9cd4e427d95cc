// POST /api/access/v1/coupons/validate – does a coupon apply to a plan, and the price with it (client key)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZValidateCouponBody } from "@/server/subscriptions/checkout/checkout.schema";
import { validateCoupon } from "@/server/subscriptions/checkout/preview";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "client",
      query: ZClientQuery,
      body: ZValidateCouponBody,
      cors: true,
      rateLimit: { name: "checkout.coupon_validate", limit: 60, windowSeconds: 60, by: "ip+key" },
      summary:
        "{subscription_plan_id, coupon_code, currency?} → {valid: true, coupon_code, discount_detail, price_cents, discounted_price_cents, price_currency, discounted_price}; 422 naming the reason (unknown, not yet valid, expired, used up, another plan, another currency). Public, enabled plans only. The per-subscriber limit is checked at preview.",
    },
    async ({ db, account, body }) =>
      json(
        await validateCoupon(db, {
          accountId: account.id,
          planId: body.subscription_plan_id,
          code: body.coupon_code,
          currency: body.currency,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  ),
});
