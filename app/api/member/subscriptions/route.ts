// GET /api/member/subscriptions – the signed-in member's subscriptions, invoices and credit notes, for the self-service page
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { requestWords } from "@/server/members/reader-locale";
import { selfServiceOverview } from "@/server/subscriptions/self-service/self-service";
import { ZSelfServiceZoneQuery } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      query: ZSelfServiceZoneQuery,
      summary:
        "The self-service page's data → {subscriptions: [{id, plan_name, status, summary (in words), next_payment_due_date, end_timestamp, amount, in_trial_period, in_grace_period, cancelled, switch_options [{id, title, switch_type, price, period}], scheduled_switch, cancellation, can_cancel, can_undo_cancel, offer {kind, periods, words} or null, can_update_payment_method, payment_method_update ({kind: form} or {kind: hosted, provider_name, href} or null), credit_cents, credit (words or null)}], invoices: [{id, number, amount, created_at, pdf_href}], credit_notes: [{id, number, invoice_number, amount, created_at, pdf_href}]}. 401 without a member session. Optional query time_zone (the reader's, e.g. Europe/Paris): the zone the sentences name their times in, else the account's; a zone that is not one is 400.",
    },
    async ({ db, req, publisher, member, query }) =>
      privateJson(
        await selfServiceOverview(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          now: new Date(),
          timeZone: query.time_zone,
          words: await requestWords(db, req, publisher.accountId, member.member.locale),
        }),
      ),
  ),
});
