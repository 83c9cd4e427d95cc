// GET /api/instant-articles.rss – the newest published stories as Instant Articles (RSS 2.0)
import { getEnv } from "@/env.js";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZFeedQuery } from "@/server/publishing/feeds/feeds.schema";
import { buildInstantArticlesFeed } from "@/server/publishing/feeds/instant-articles";
import { RSS_CONTENT_TYPE } from "@/server/publishing/feeds/rss";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZFeedQuery,
      produces: "any",
      summary:
        "Instant Articles feed: RSS 2.0 whose content:encoded is a full Instant Article document per published story.",
    },
    async ({ req, db, publisher, url, query }) => {
      const env = getEnv();
      const { accountId } = publisher;
      const { xml, tags } = await buildInstantArticlesFeed(db, {
        accountId,
        appUrl: env.APP_URL,
        selfUrl: url.toString(),
        ...query,
      });
      return contentResponse(req, xml, { contentType: RSS_CONTENT_TYPE, tags });
    },
  ),
});
