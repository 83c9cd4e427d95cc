// GET /api/v1/accounts/{account_id}/pages/{b64 url}/awaiting_review.json?jwt= – the reader's own comments on the page that wait for a moderator
import { ZPageParams } from "@/server/engagement/comments.schema";
import { listAwaitingReview } from "@/server/engagement/moderation/queue/awaiting-review";
import { ZAwaitingReviewQuery } from "@/server/engagement/moderation/queue/awaiting-review.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZPageParams,
      query: ZAwaitingReviewQuery,
      cors: true,
      rateLimit: { name: "engagement.awaiting_review", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's own comments on the page that wait for a moderator (401 without a jwt): {comments: [comment]}, each as the comment list answers it, with is_published false; unpublished, undecided, not deleted nor hidden; oldest first, at most 50. The widget shows them to their author alone, marked as awaiting review. A reader never seen, or an unknown page: []. Never cached.",
    },
    async ({ db, account, user, params }) =>
      json(await listAwaitingReview(db, { accountId: account.id, encodedUrl: params.encoded_url, user }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
