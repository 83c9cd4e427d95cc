// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/hide – the author hides a comment
import { hideComment } from "@/server/engagement/comments";
import { ZCommentParams, ZHideCommentBody } from "@/server/engagement/comments.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt",
      params: ZCommentParams,
      body: ZHideCommentBody,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.commentHide,
      summary:
        "Hide the comment as its author: {jwt} → {comment} with hidden, hidden_at, hidden_by_id; again: unchanged. 401 without jwt, 403 for another reader, 404 for a comment not on this page of this account.",
    },
    async ({ db, account, user, params }) =>
      json(
        await hideComment(db, {
          accountId: account.id,
          user,
          encodedUrl: params.encoded_url,
          commentId: params.comment_id,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  ),
});
