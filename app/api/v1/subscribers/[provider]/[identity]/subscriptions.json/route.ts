// GET|POST|PATCH /api/v1/subscribers/{provider}/{identity}/subscriptions.json – a subscriber's subscriptions:
// list, create from a preview (checkout), metadata of all active ones (server API)
import { z } from "zod";

import { serverCheckoutRoute } from "@/server/http/checkout-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  findPathSubscriber,
  NO_STORE,
  notFoundSubscriber,
  SERVER_READ_LIMIT,
  SERVER_WRITE_LIMIT,
  ZAlternateQuery,
  ZListQuery,
} from "@/server/http/subscriber-subscription-routes";
import { ZSubscriberPathParams } from "@/server/subscriptions/subscribers/subscribers.schema";
import {
  SUBSCRIPTION_METADATA_LIMITS,
  ZSubscriptionMetadata,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";
import {
  listSubscriberSubscriptions,
  updateActiveSubscriptionsMetadata,
} from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      query: ZListQuery,
      rateLimit: SERVER_READ_LIMIT,
      summary:
        "The subscriber's subscriptions, newest first → {subscriptions: [Subscription]}; active_only=true keeps those granting access now. A subscriber not found (at <provider>/<identity> or alternate_provider/alternate_identity) has none: {subscriptions: []}.",
    },
    async ({ db, account, params, query }) => {
      const { active_only, ...alternate } = query;
      const member = await findPathSubscriber(db, { accountId: account.id, ...params, ...alternate });
      const subscriptions = member
        ? await listSubscriberSubscriptions(db, {
            accountId: account.id,
            memberId: member.id,
            activeOnly: active_only,
            now: new Date(),
          })
        : [];
      return json({ subscriptions }, NO_STORE);
    },
  ),
  POST: serverCheckoutRoute("create"),
  PATCH: apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      query: ZAlternateQuery,
      body: z.object({ metadata: ZSubscriptionMetadata }),
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      rateLimit: SERVER_WRITE_LIMIT,
      summary:
        "{metadata}: merged into every subscription of the subscriber that grants access now (keys sent replace, null removes a key, others kept) → {subscriptions: [the subscriptions changed]}. 404 when no subscriber has the identity.",
    },
    async ({ db, account, params, query, body }) => {
      const member = await findPathSubscriber(db, { accountId: account.id, ...params, ...query });
      if (!member) throw notFoundSubscriber();
      const subscriptions = await updateActiveSubscriptionsMetadata(db, {
        accountId: account.id,
        memberId: member.id,
        metadata: body.metadata,
        now: new Date(),
      });
      return json({ subscriptions }, NO_STORE);
    },
  ),
});
