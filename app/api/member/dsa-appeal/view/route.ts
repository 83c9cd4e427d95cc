// POST /api/member/dsa-appeal/view – the decision an appeal link names, for its page (the token in the body, not the URL)
import { dsaAppealView } from "@/server/engagement/dsa/appeals";
import { ZDsaAppealQuery } from "@/server/engagement/dsa/dsa.schema";
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisher",
      body: ZDsaAppealQuery,
      rateLimit: { name: "engagement.dsa_appeal.view", limit: 60, windowSeconds: 60, by: "ip" },
      maxBodyBytes: 1_024,
      summary:
        "{token} → {party, locale, headline, action, category, ground, ground_reference, facts, decided_at, appeal_until, submitted_at, outcome, can_appeal}: the decision on an illegal-content notice as its appeal link's page shows it. 404 for a token that is not valid here.",
    },
    async ({ db, publisher, body }) =>
      privateJson(await dsaAppealView(db, { accountId: publisher.accountId, token: body.token, now: new Date() })),
  ),
});
