// PATCH|DELETE /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}.json – one subscription (server API)
import { z } from "zod";

import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  findPathSubscriber,
  NO_STORE,
  notFoundSubscriber,
  SERVER_WRITE_LIMIT,
  serverCancelHandler,
  serverCancelOptions,
  ZAlternateQuery,
  ZSubscriberSubscriptionParams,
} from "@/server/http/subscriber-subscription-routes";
import {
  SUBSCRIPTION_METADATA_LIMITS,
  ZNotes,
  ZSubscriptionMetadata,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";
import { updateSubscriptionMetadata } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PATCH: apiRoute(
    {
      auth: "server",
      params: ZSubscriberSubscriptionParams,
      query: ZAlternateQuery,
      body: z.object({ subscription: z.object({ metadata: ZSubscriptionMetadata, notes: ZNotes.optional() }) }),
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      rateLimit: SERVER_WRITE_LIMIT,
      summary:
        "{subscription: {metadata, notes?}}: metadata merged into the subscription's (keys sent replace, null removes a key, others kept) → {subscription}. 404 for another subscriber's or account's id.",
    },
    async ({ db, account, params, query, body }) => {
      const member = await findPathSubscriber(db, { accountId: account.id, ...params, ...query });
      if (!member) throw notFoundSubscriber();
      const subscription = await updateSubscriptionMetadata(db, {
        accountId: account.id,
        caller: { via: "server_api", memberId: member.id },
        id: params.subscription_id,
        metadata: body.subscription.metadata,
        notes: body.subscription.notes,
        now: new Date(),
      });
      return json({ subscription }, NO_STORE);
    },
  ),
  DELETE: apiRoute(serverCancelOptions(true), serverCancelHandler(true)),
});
