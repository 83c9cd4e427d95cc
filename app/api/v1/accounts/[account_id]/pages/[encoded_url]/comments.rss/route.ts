// GET /api/v1/accounts/{account_id}/pages/{b64 url}/comments.rss – the page's newest comments as RSS 2.0
import { getEnv } from "@/env.js";
import { COMMENTS_PURGE_KEY } from "@/server/engagement/comments-cache";
import { ZPageParams } from "@/server/engagement/comments.schema";
import { pageCommentsRss } from "@/server/engagement/notifications/rss";
import { cachedRead } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      cors: true,
      produces: "any",
      rateLimit: { name: "engagement.comments-rss", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The page's newest 50 visible comments (replies too), newest first, as an RSS 2.0 feed (application/rss+xml): each item the author, the comment's text and a link to it on its page. 404 for a page nobody has commented on.",
    },
    // Kept in the response cache until a write purges the account's "comments" key, as the list is.
    async ({ db, req, url, account, params }) => {
      const key = new URL(
        `/api/v1/accounts/${account.id}/pages/${encodeURIComponent(params.encoded_url)}/comments.rss`,
        url,
      );
      return cachedRead(
        req,
        key,
        account.id,
        async () => ({
          body: await pageCommentsRss(db, {
            accountId: account.id,
            encodedUrl: params.encoded_url,
            // The feed's own address at the app's public URL (the request's may name the address it is bound to).
            selfUrl: new URL(key.pathname, getEnv().APP_URL).toString(),
          }),
          contentType: "application/rss+xml; charset=utf-8",
          tags: [COMMENTS_PURGE_KEY],
        }),
        { ignoreParams: ["jwt"] },
      );
    },
  ),
});
