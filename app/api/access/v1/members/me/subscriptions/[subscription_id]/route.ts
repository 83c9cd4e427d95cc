// GET|PATCH /api/access/v1/members/me/subscriptions/{id} – one of the reader's subscriptions (client API)
import { z } from "zod";

import {
  PRIVATE_NO_STORE,
  READER_READ_LIMIT,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { scheduledSwitchOf } from "@/server/subscriptions/recurring/plan-switch-scheduled";
import {
  SUBSCRIPTION_METADATA_LIMITS,
  ZNotes,
  ZSubscriptionMetadata,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";
import {
  getSubscription,
  switchPlanDetails,
  updateSubscriptionMetadata,
} from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      rateLimit: READER_READ_LIMIT,
      summary:
        "One of the reader's subscriptions with the plans it may switch to → {subscription, original_attempt_token: null, upgrade_plan_details, downgrade_plan_details, crossgrade_plan_details} (the other enabled plans of its group by price per day; prorated_amount_cents null: preview the switch for the charge), proration_enabled (the group's setting) and scheduled_switch (a switch waiting for the period end: {subscription_plan_id, plan_name, switch_type, scheduled_at, price_cents, currency, paid_cents}, or null). 404 for another reader's or account's id.",
    },
    async ({ db, account, user, params }) => {
      const memberId = await readerMemberId(db, account.id, user);
      const subscription = await getSubscription(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId },
        id: params.subscription_id,
        now: new Date(),
      });
      const switches = await switchPlanDetails(db, { accountId: account.id, subscription });
      const scheduled = await scheduledSwitchOf(db, { accountId: account.id, subscriptionId: subscription.id });
      return json({ subscription, original_attempt_token: null, ...switches, ...scheduled }, PRIVATE_NO_STORE);
    },
  ),
  PATCH: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      body: z.object({ subscription: z.object({ metadata: ZSubscriptionMetadata, notes: ZNotes.optional() }) }),
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "{subscription: {metadata, notes?}}: metadata merged into the subscription's (keys sent replace, null removes a key) → {message: \"Subscription Updated\"}. The JWT is required (401 without); 404 for another reader's or account's id.",
    },
    async ({ db, account, user, params, body }) => {
      const memberId = await readerMemberId(db, account.id, user);
      await updateSubscriptionMetadata(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId },
        id: params.subscription_id,
        metadata: body.subscription.metadata,
        notes: body.subscription.notes,
        now: new Date(),
      });
      return json({ message: "Subscription Updated" }, PRIVATE_NO_STORE);
    },
  ),
});
