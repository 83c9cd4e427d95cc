// POST /api/v1/accounts/{account_id}/ugc – a reader's contribution through the UGC form (pending review)
import { submitUgc } from "@/server/engagement/ugc";
import { UGC_LIMITS, ZCreateUgcBody, ZUgcParams } from "@/server/engagement/ugc.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZUgcParams,
      body: ZCreateUgcBody,
      maxBodyBytes: UGC_LIMITS.maxBodyBytes,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.ugcCreate,
      summary:
        "Submit a contribution as the jwt's reader (401 without): {jwt, submission: {topic_type, topic_values (array or comma-separated), title?, text, links?, images?}} → 201 {submission: {id, topic_type, topic_values, title, text, links, images, status: pending, created_at, decided_at}}. text is plain text stored as written (never HTML), at most 10,000 characters (413); links http(s) only (10); images must be served by Masthead (10; 400 otherwise); body at most 64 KiB (413). The same submission again within 30 s answers the first.",
    },
    async ({ db, account, user, body }) => {
      const { submission } = await submitUgc(db, { accountId: account.id, user, input: body, now: new Date() });
      return json({ submission }, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
