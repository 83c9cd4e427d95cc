// POST /api/member/subscriptions/{id}/undo-cancel – take back a cancel (or a pause) before the period ends
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { undoCancel } from "@/server/subscriptions/self-service/self-service-cancel";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      summary:
        "No body → {subscription}: active again, its next payment at the period end (recurring), as if never cancelled; subscription.activated is emitted with reactivated: true. 422 when it is not cancelled or its period has ended; 404 for another member's.",
    },
    async ({ db, publisher, member, params }) =>
      privateJson({
        subscription: await undoCancel(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          now: new Date(),
        }),
      }),
  ),
});
