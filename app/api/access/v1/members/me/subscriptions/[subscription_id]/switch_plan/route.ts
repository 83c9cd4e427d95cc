// POST /api/access/v1/members/me/subscriptions/{id}/switch_plan – switch plans, now or at period end (client API)
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { applyPlanSwitch } from "@/server/subscriptions/recurring/plan-switch";
import { ZSwitchBody } from "@/server/subscriptions/subscribers/subscription-actions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      body: ZSwitchBody,
      maxBodyBytes: 8_192,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "{attempt_token (from the preview), payment_token (when the switch is paid), the gateway's signature fields} → {subscription, attempt_token, message}: switched now (\"Subscription plan switched.\"; a recurring upgrade's difference charged once to the stored card, a downgrade's carried as credit to the next charges; on Stripe, Stripe's prorated charge as previewed, through Stripe), or, when proration is off, the gateway changes plans only from its next cycle (Razorpay), nobody charges a stored card or it is in its trial, scheduled for the period end (the message says why; GET …/subscriptions/<id> shows scheduled_switch; a gateway that charges by itself is moved to the new plan from its next cycle now). The same token again answers the subscription as it is, charging nothing more. 409 when the plan's price changed since the preview; 422 for a token of another subscription, expired, a payment refused, a charge declined or the gateway refusing or now charging another amount; 503 when the gateway cannot be reached (nothing changes in any of these).",
    },
    async ({ db, account, user, params, body }) => {
      const memberId = await readerMemberId(db, account.id, user);
      const { attempt_token, payment_token, ...extra } = body;
      const result = await applyPlanSwitch(db, {
        accountId: account.id,
        memberId,
        subscriptionId: params.subscription_id,
        attemptToken: attempt_token,
        paymentToken: payment_token ?? null,
        extra,
        now: new Date(),
      });
      return json(result, PRIVATE_NO_STORE);
    },
  ),
});
