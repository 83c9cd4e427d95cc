// GET /api/v1/accounts/{account_id}/feed – the account's recent visible comments, newest first (the feed widget)
import { accountFeed } from "@/server/engagement/feed";
import { ZFeedParams, ZFeedQuery } from "@/server/engagement/feed.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZFeedParams,
      query: ZFeedQuery,
      cors: true,
      summary:
        "The account's recent visible comments, newest first: {items: [{comment, page: {id, url, headline, hero_image_url}}], next_cursor}; comment as in the comments API. limit 1 to 50 (default 20); cursor: the previous answer's next_cursor (opaque; null on the last page); page: only this page's comments (a page id, base64 of the URL).",
    },
    async ({ db, account, query }) =>
      json(await accountFeed(db, { accountId: account.id, query }), { headers: { "Cache-Control": "no-store" } }),
  ),
});
