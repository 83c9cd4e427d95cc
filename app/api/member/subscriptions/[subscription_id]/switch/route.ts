// POST /api/member/subscriptions/{id}/switch – confirm a previewed plan switch, exactly as previewed
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { requestWords } from "@/server/members/reader-locale";
import { confirmSelfServiceSwitch } from "@/server/subscriptions/self-service/self-service";
import {
  ZSelfServiceSwitchInput,
  ZSelfServiceZoneQuery,
} from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      body: ZSelfServiceSwitchInput,
      query: ZSelfServiceZoneQuery,
      summary:
        "{attempt_token (from the preview), payment_token and signature (only when a one-time switch costs something now: the gateway form's payment; a recurring switch is charged to the stored card)} → {subscription_id, plan_name, message}: the client API's switch_plan. The same token again answers the same, switching once. 409 when the plan's price changed since the preview (nothing charged: preview again); 422 for a token of another subscription, expired, or a payment refused. Optional query time_zone (the reader's, e.g. Europe/Paris): the zone `message` names its time in, else the account's; a zone that is not one is 400.",
    },
    async ({ db, req, publisher, member, params, body, query }) => {
      const { attempt_token, payment_token, ...extra } = body;
      return privateJson(
        await confirmSelfServiceSwitch(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          attemptToken: attempt_token,
          paymentToken: payment_token ?? null,
          extra,
          now: new Date(),
          timeZone: query.time_zone,
          words: await requestWords(db, req, publisher.accountId, member.member.locale),
        }),
      );
    },
  ),
});
