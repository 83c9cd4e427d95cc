// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/report
// – the signed-in reader reports a visible comment to the moderators
import { reportComment } from "@/server/engagement/reports";
import { REPORT_REASONS, ZReportBody, ZReportParams } from "@/server/engagement/reports.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZReportParams,
      body: ZReportBody,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.report,
      summary: `Report a visible comment to the moderators: {jwt, reason (${REPORT_REASONS.join(", ")}), note?} → 201 {report, created: true}; the reader's second report of the comment: 200 with the first one, created false. 401 without jwt, 403 for a banned reader or one's own comment, 404 for a comment not visible on this page of this account.`,
    },
    async ({ db, account, user, params, body }) => {
      const answer = await reportComment(db, {
        accountId: account.id,
        user,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        input: body,
        now: new Date(),
      });
      return json(answer, { status: answer.created ? 201 : 200, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
