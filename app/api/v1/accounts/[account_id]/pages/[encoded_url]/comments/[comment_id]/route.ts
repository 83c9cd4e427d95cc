// PUT /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id} – the author edits a comment
import { editComment } from "@/server/engagement/comments";
import { COMMENT_LIMITS, ZCommentParams, ZEditCommentBody } from "@/server/engagement/comments.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      auth: "publisherJwt",
      params: ZCommentParams,
      body: ZEditCommentBody,
      maxBodyBytes: COMMENT_LIMITS.maxBodyBytes,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.commentEdit,
      summary:
        "Replace the comment's ops as its author: {comment: {ops}, jwt} → {comment} with edited_at; 401 without jwt, 403 for another reader, 404 for a comment not on this page of this account.",
    },
    async ({ db, account, user, params, body }) =>
      json(
        await editComment(db, {
          accountId: account.id,
          user,
          encodedUrl: params.encoded_url,
          commentId: params.comment_id,
          ops: body.comment.ops,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  ),
});
