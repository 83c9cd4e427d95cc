// POST /api/member/subscriptions/{id}/retention-offer – take the publisher's offer instead of cancelling
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { acceptRetentionOffer } from "@/server/subscriptions/self-service/self-service-cancel";
import { ZSelfServiceCancelInput } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      body: ZSelfServiceCancelInput,
      summary:
        "{reason, comment?} (why the reader meant to cancel) → {subscription, offer}: the account's retention offer applied instead of a cancel (a coupon off the next N charges, or a pause of N periods); the reason is stored. 422 when there is no offer for this subscription (none set, not a live recurring subscription, or an offer already taken).",
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson(
        await acceptRetentionOffer(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          input: body,
          now: new Date(),
        }),
      ),
  ),
});
