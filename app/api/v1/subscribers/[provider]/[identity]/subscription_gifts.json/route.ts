// GET /api/v1/subscribers/{provider}/{identity}/subscription_gifts.json – the subscriptions a subscriber gave (server API)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  findPathSubscriber,
  NO_STORE,
  SERVER_READ_LIMIT,
  ZAlternateQuery,
} from "@/server/http/subscriber-subscription-routes";
import { ZSubscriberPathParams } from "@/server/subscriptions/subscribers/subscribers.schema";
import { listGiftedSubscriptions } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      query: ZAlternateQuery,
      rateLimit: SERVER_READ_LIMIT,
      summary:
        "The subscriptions the subscriber gave as gifts (gifter = the subscriber; each held by its recipient, with gifter {id, name, email} and custom_message), newest first → {subscriptions: [Subscription]}. A subscriber not found has given none: {subscriptions: []}.",
    },
    async ({ db, account, params, query }) => {
      const member = await findPathSubscriber(db, { accountId: account.id, ...params, ...query });
      const subscriptions = member
        ? await listGiftedSubscriptions(db, { accountId: account.id, gifterMemberId: member.id, now: new Date() })
        : [];
      return json({ subscriptions }, NO_STORE);
    },
  ),
});
