// GET /api/v1/accounts/{account_id}/pages/{b64 url}/comments.json – a page's comments, replies nested
// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments.json – comment (or reply) as the jwt's reader
import { personalizeList } from "@/server/engagement/comment-viewer";
import { createComment, listComments } from "@/server/engagement/comments";
import { COMMENTS_PURGE_KEY } from "@/server/engagement/comments-cache";
import {
  COMMENT_LIMITS,
  ZCreateCommentBody,
  ZListCommentsQuery,
  ZPageParams,
} from "@/server/engagement/comments.schema";
import { cachedRead, withBody } from "@/server/http/content-cache";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const NO_STORE = { headers: { "Cache-Control": "no-store" } };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      query: ZListCommentsQuery,
      cors: true,
      summary:
        "The page's comments: {total_count, comments, total_parent_comments_count}; top-level comments paged (parent_comments_limit, default 20, at most 100; parent_comments_offset) and sorted (sort_order newest|oldest|most_reacted, desc = newest, asc = oldest), each with its replies in `replies` (child_comments_sort_order). With a jwt, each comment also has my_reactions (the reader's reaction ids) and the reader's own comments editable_until (the account's edit window; null: no limit). featured=first adds featured_comments (moderators' featured comments) and a featured flag on each top-level comment. On a Q&A page only answered questions are listed and counted; with a jwt, awaiting_answer holds the reader's own unanswered questions. An unknown page is empty.",
    },
    // Kept in the response cache, anonymous, until a write purges the account's "comments" key;
    // what is a reader's own (my_reactions, editable_until, awaiting_answer) is laid over the kept
    // answer (personalizeList), never kept.
    async ({ db, req, url, account, user, params, query }) =>
      cachedRead(
        req,
        // Keyed by the page the params name, however the path spelled it.
        new URL(
          `/api/v1/accounts/${account.id}/pages/${encodeURIComponent(params.encoded_url)}/comments.json${url.search}`,
          url,
        ),
        account.id,
        async () => ({
          body: await listComments(db, { accountId: account.id, encodedUrl: params.encoded_url, query }),
          tags: [COMMENTS_PURGE_KEY],
        }),
        {
          ignoreParams: ["jwt"],
          cacheControl: "no-store",
          personalize: user
            ? async (built) =>
                withBody(
                  built,
                  await personalizeList(db, {
                    accountId: account.id,
                    viewer: user,
                    encodedUrl: params.encoded_url,
                    body: Buffer.from(built.body).toString(),
                  }),
                )
            : undefined,
        },
      ),
  ),
  POST: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      body: ZCreateCommentBody,
      maxBodyBytes: COMMENT_LIMITS.maxBodyBytes,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.commentCreate,
      summary:
        "Comment as the jwt's reader, or as a guest without jwt with a solved captcha (comment.body.captcha_response from GET captcha/challenge, comment.body.guest_name optional) where the publication takes guests (401 without either, 403 guests not allowed or the captcha forged, expired or used): {comment: {body: {ops, captcha_response?, guest_name?}, parent_comment_id?}, confidential?, jwt?, mobile?} → 201 {total_count, comment, total_parent_comments_count}. confidential: signed-in readers only, where allowed (403); author null. The same body again within 10 s answers the first comment (signed-in readers). The first comment on a URL of the publication creates its page (403 for other hosts). At most 50 ops and 10,000 characters (413).",
    },
    async ({ db, account, user, params, body }) => {
      const { response } = await createComment(db, {
        account,
        user,
        encodedUrl: params.encoded_url,
        input: body,
        now: new Date(),
      });
      return json(response, { status: 201, ...NO_STORE });
    },
  ),
});
