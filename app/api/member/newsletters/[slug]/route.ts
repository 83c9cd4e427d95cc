// PUT /api/member/newsletters/{slug} – the signed-in reader joins or leaves a newsletter
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_LIMIT } from "@/server/http/self-service-routes";
import { setMemberSubscription } from "@/server/newsletters/subscriptions";
import { ZMemberNewsletterPut, ZNewsletterSlugParams } from "@/server/newsletters/subscriptions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      auth: "member",
      params: ZNewsletterSlugParams,
      body: ZMemberNewsletterPut,
      rateLimit: SELF_SERVICE_WRITE_LIMIT,
      maxBodyBytes: 1_024,
      summary:
        '{subscribed: boolean} → {newsletter: {slug, name, description, status, subscribed}}. Joining with a verified e-mail (and an address not suppressed) is "active" at once (consent source "self_service"); otherwise "pending" and a confirmation mail is sent. Leaving records the time and source "self_service". Idempotent. 404 for a newsletter the reader may not see; 401 without a member session.',
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson({
        newsletter: await setMemberSubscription(db, {
          accountId: publisher.accountId,
          member: member.member,
          slug: params.slug,
          subscribed: body.subscribed,
          now: new Date(),
        }),
      }),
  ),
});
