// GET /api/member/newsletters – the newsletters the signed-in reader may join, with their status
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { listMemberNewsletters } from "@/server/newsletters/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "The account's non-archived newsletters the signed-in reader may join (a PAYING one only with a paid plan it names, or while subscribed) → {newsletters: [{slug, name, description, status (none|pending|active|unsubscribed), subscribed}]}. 401 without a member session.",
    },
    async ({ db, publisher, member }) => {
      const list = await listMemberNewsletters(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        now: new Date(),
      });
      return privateJson({ newsletters: list.map(({ newsletter: _n, ...view }) => view) });
    },
  ),
});
