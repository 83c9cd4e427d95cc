// POST /api/member/dsa-appeal – a party appeals a DSA notice's decision through their mailed link (art. 20)
import { submitDsaAppeal } from "@/server/engagement/dsa/appeals";
import { ZDsaAppealBody } from "@/server/engagement/dsa/dsa.schema";
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisher",
      body: ZDsaAppealBody,
      rateLimit: { name: "engagement.dsa_appeal", limit: 10, windowSeconds: 600, by: "ip" },
      maxBodyBytes: 16_384,
      summary:
        "{token (the appeal link's), text (10 to 2000 characters)} → 201 {appeal: {id, submitted_at}}: the comment's author or the notifier appeals the decision on an illegal-content notice, once, within six months of it. No session: the link's token (stored hashed) is the permission. 404 for a token that is not valid here, 409 when this party appealed already, 410 after six months.",
    },
    async ({ db, publisher, body }) =>
      privateJson(
        await submitDsaAppeal(db, {
          accountId: publisher.accountId,
          token: body.token,
          text: body.text,
          now: new Date(),
        }),
        201,
      ),
  ),
});
