// POST /api/member/subscriptions/{id}/switch/preview – the terms of a plan switch, in words, behind a signed attempt token
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { requestWords } from "@/server/members/reader-locale";
import { previewSelfServiceSwitch } from "@/server/subscriptions/self-service/self-service";
import {
  ZSelfServiceSwitchPreviewInput,
  ZSelfServiceZoneQuery,
} from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      body: ZSelfServiceSwitchPreviewInput,
      query: ZSelfServiceZoneQuery,
      summary:
        "{subscription_plan_id} → {attempt_token, chargeable_amount_cents, external_reference_id, switch {applies: now|scheduled, applies_at, price_cents, credit_cents, currency, …}, words (the terms as a sentence), needs_payment (a one-time switch paid in the gateway's form first)}: the client API's switch_plan/preview (the switch type found from the prices). 422 for a plan the subscription cannot switch to; 404 for another member's subscription. Optional query time_zone (the reader's, e.g. Europe/Paris): the zone `words` names its times in, else the account's; a zone that is not one is 400.",
    },
    async ({ db, req, publisher, member, params, body, query }) =>
      privateJson(
        await previewSelfServiceSwitch(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          targetPlanId: body.subscription_plan_id,
          now: new Date(),
          timeZone: query.time_zone,
          words: await requestWords(db, req, publisher.accountId, member.member.locale),
        }),
      ),
  ),
});
