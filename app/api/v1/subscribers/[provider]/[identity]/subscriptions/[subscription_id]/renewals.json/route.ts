// POST /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}/renewals.json – renew a subscription (server API)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  NO_STORE,
  SERVER_WRITE_LIMIT,
  ZSubscriberSubscriptionParams,
} from "@/server/http/subscriber-subscription-routes";
import { renewSubscription } from "@/server/subscriptions/recurring/renewals";
import { ZRenewalBody } from "@/server/subscriptions/recurring/renewals.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "server",
      params: ZSubscriberSubscriptionParams,
      body: ZRenewalBody,
      maxBodyBytes: 32_768,
      rateLimit: SERVER_WRITE_LIMIT,
      summary:
        "Renew the subscriber's subscription: {subscription:{payment:{payment_type, payment_token (required), amount_cents?, amount_currency?, external_reference_id?}, coupon_code?, metadata?}} → 201 {subscription} (the new one: same plan, starting when the renewed one ends, or now if it has ended; metadata copied when omitted). The same payment_token again → 200 with the same subscription. 404 for another subscriber's id; 422 for a recurring, pending, failed, pay-per-asset or never-ending subscription, a plan no longer on sale, or a refused payment.",
    },
    async ({ db, account, params, body }) => {
      const alternate =
        body.alternate_provider && body.alternate_identity
          ? { provider: body.alternate_provider, identity: body.alternate_identity }
          : null;
      const { subscription, created } = await renewSubscription(db, {
        accountId: account.id,
        who: { channel: "server", at: { provider: params.provider, identity: params.identity }, alternate },
        subscriptionId: params.subscription_id,
        body,
        now: new Date(),
      });
      return json({ subscription }, { status: created ? 201 : 200, headers: NO_STORE.headers });
    },
  ),
});
