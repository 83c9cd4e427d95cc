// POST /api/access/v1/members/me/subscriptions/{id}/switch_plan/preview – the terms of a plan switch (client API)
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { previewPlanSwitch } from "@/server/subscriptions/recurring/plan-switch";
import { ZSwitchPreviewBody } from "@/server/subscriptions/subscribers/subscription-actions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      body: ZSwitchPreviewBody,
      maxBodyBytes: 4_096,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "{subscription_plan_id, switch_type (upgrade|crossgrade|downgrade)} → {subscription, attempt_token, chargeable_amount_cents (one-time plans: the prorated charge, target price − unused credit, or the full price when proration is off; recurring plans applied now: the prorated difference charged to the stored card at the switch (on Stripe: what Stripe's own proration will charge, at an instant frozen in the attempt), 0 for a downgrade whose difference becomes credit; null for a recurring switch scheduled for the next charge), external_reference_id, switch {applies: now|scheduled, applies_at, price_cents, credit_cents, charged_with, and for recurring plans rest_cents, carry_cents, resets_cycle, credit_balance_cents, next_charge_at, next_charge_cents or scheduled_reason, …}}. 422 when switch_type is not what the prices make it, the gateway that charges the subscription cannot make this switch (e.g. no razorpay_plan_id on the target plan), the target has no price in the subscription's currency, is not an enabled plan of its group, or the subscription is not active; 503 when that gateway cannot be reached; 404 for another reader's id.",
    },
    async ({ db, account, user, params, body }) => {
      const memberId = await readerMemberId(db, account.id, user);
      const preview = await previewPlanSwitch(db, {
        accountId: account.id,
        memberId,
        subscriptionId: params.subscription_id,
        targetPlanId: body.subscription_plan_id,
        switchType: body.switch_type,
        now: new Date(),
      });
      return json(preview, PRIVATE_NO_STORE);
    },
  ),
});
