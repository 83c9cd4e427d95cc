// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/illegal-content-notice
// – a reader, signed in or not, notifies a comment as illegal content (EU Digital Services Act art. 16)
import { DSA_NOTICE_CATEGORIES, ZDsaNoticeBody, ZDsaNoticeParams } from "@/server/engagement/dsa/dsa.schema";
import { submitDsaNotice } from "@/server/engagement/dsa/notices";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt",
      params: ZDsaNoticeParams,
      body: ZDsaNoticeBody,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.dsaNotice,
      summary: `Notify a visible comment as illegal content (EU Digital Services Act art. 16): {jwt?, category (${DSA_NOTICE_CATEGORIES.join(", ")}), law_or_reason (10 to 1000 characters), name?, email (required without jwt), good_faith: true, locale?, captcha_response (required without jwt)} → 201 {notice, created: true}; the same notifier's undecided notice of the comment: 200 with it, created false. The comment is not hidden: moderators decide. The notifier gets a confirmation of receipt by e-mail. 400 for a bad body, 403 for a forged, expired or used captcha, 404 for a comment not visible on this page of this account.`,
    },
    async ({ db, account, user, params, body }) => {
      const answer = await submitDsaNotice(db, {
        accountId: account.id,
        user: user ?? null,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        input: body,
        now: new Date(),
      });
      return json(answer, { status: answer.created ? 201 : 200, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
