// PUT /api/access/v1/members/me/subscriptions/{id}/cancel – the reader cancels at period end (client API)
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { noContent } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { cancelWithReason } from "@/server/subscriptions/self-service/self-service-cancel";
import { ZSelfServiceCancelInput } from "@/server/subscriptions/self-service/self-service.schema";
import { cancelSubscription } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      // Optional: the reader's reason, as the self-service page sends it (docs/subscriptions.md "Self-service page").
      body: ZSelfServiceCancelInput.partial(),
      maxBodyBytes: 4_096,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "Cancel one of the reader's subscriptions at period end (access until end_timestamp; a pending one ends now) → 204, empty body. No body, or {reason (too_expensive|not_using|found_alternative|technical|temporary|other), comment?}: the reason is stored and sent in the subscription.cancelled event, as the self-service page's cancel does. Again: 204, nothing changes. The JWT is required (401 without); 404 for another reader's or account's id; 422 for a failed one.",
    },
    async ({ db, account, user, params, body }) => {
      const memberId = await readerMemberId(db, account.id, user);
      const now = new Date();
      if (body.reason)
        await cancelWithReason(db, {
          accountId: account.id,
          memberId,
          subscriptionId: params.subscription_id,
          input: { reason: body.reason, comment: body.comment },
          now,
        });
      else
        await cancelSubscription(db, {
          accountId: account.id,
          caller: { via: "client_api", memberId },
          id: params.subscription_id,
          now,
        });
      return noContent(PRIVATE_NO_STORE);
    },
  ),
});
