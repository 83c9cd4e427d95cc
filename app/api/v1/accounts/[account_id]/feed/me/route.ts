// GET /api/v1/accounts/{account_id}/feed/me?jwt= – the signed-in reader's activity: own comments, replies, mentions
import { readerFeed } from "@/server/engagement/feed";
import { ZFeedParams, ZMyFeedQuery } from "@/server/engagement/feed.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZFeedParams,
      query: ZMyFeedQuery,
      cors: true,
      summary:
        "The jwt's reader's activity (401 without a jwt), newest first: {items: [{type: own_comment|reply|mention, held, comment, page: {id, url, headline, hero_image_url}}], next_cursor}. own_comment: the reader's comments, held ones too (held true, is_published false); reply: others' visible replies to them; mention: others' visible comments whose mention op's id is the reader's member id. limit 1 to 50 (default 20); cursor: the previous answer's next_cursor; since (ISO 8601 time): unread_count counts replies and mentions newer than it (at most 50; null without since).",
    },
    async ({ db, account, user, query }) =>
      json(await readerFeed(db, { accountId: account.id, user, query }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
