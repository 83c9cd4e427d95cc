// POST /api/v1/accounts/{account_id}/notices/{notice_id}/acknowledge – the reader saw a moderator's notice
import { acknowledgeNotice } from "@/server/engagement/community/notices";
import { ZAcknowledgeNoticeBody, ZAcknowledgeNoticeParams } from "@/server/engagement/community/notices.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZAcknowledgeNoticeParams,
      body: ZAcknowledgeNoticeBody,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.noticeAcknowledge,
      summary:
        "{jwt} → {notice} with acknowledged_at: the widget showed it and the reader said so; it is not answered again. Again: the same answer, the first time kept. 401 without a jwt; 404 for a notice of another reader or account.",
    },
    async ({ db, account, user, params }) =>
      json(await acknowledgeNotice(db, { accountId: account.id, user, noticeId: params.notice_id, now: new Date() }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
