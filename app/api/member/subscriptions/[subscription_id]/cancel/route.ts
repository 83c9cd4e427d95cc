// POST /api/member/subscriptions/{id}/cancel – cancel at period end, with the reader's reason
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { cancelWithReason } from "@/server/subscriptions/self-service/self-service-cancel";
import { ZSelfServiceCancelInput } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      body: ZSelfServiceCancelInput,
      summary:
        "{reason (too_expensive|not_using|found_alternative|technical|temporary|other), comment?} → {subscription}: cancelled at period end as the client API's cancel does; the reason is stored (revenue staff see it) and sent in the subscription.cancelled event as `cancellation`. Again: the same answer, nothing more stored. 422 for a failed or expired subscription; 404 for another member's.",
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson({
        subscription: await cancelWithReason(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          input: body,
          now: new Date(),
        }),
      }),
  ),
});
