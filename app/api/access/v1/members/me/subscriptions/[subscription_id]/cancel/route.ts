// PUT /api/access/v1/members/me/subscriptions/{id}/cancel – the reader cancels at period end (client API)
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { noContent } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { cancelSubscription } from "@/server/subscriptions/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "Cancel one of the reader's subscriptions at period end (access until end_timestamp; a pending one ends now) → 204, empty body. Again: 204, nothing changes. The JWT is required (401 without); 404 for another reader's or account's id; 422 for a failed one.",
    },
    async ({ db, account, user, params }) => {
      const memberId = await readerMemberId(db, account.id, user);
      await cancelSubscription(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId },
        id: params.subscription_id,
        now: new Date(),
      });
      return noContent(PRIVATE_NO_STORE);
    },
  ),
});
