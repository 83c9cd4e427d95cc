// GET /api/instant-articles.rss – the newest published stories as Instant Articles (RSS 2.0)
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZFeedQuery } from "@/server/publishing/feeds/feeds.schema";
import { buildInstantArticlesFeed } from "@/server/publishing/feeds/instant-articles";
import { RSS_CONTENT_TYPE } from "@/server/publishing/feeds/rss";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      query: ZFeedQuery,
      produces: "any",
      summary: "Instant Articles feed: RSS 2.0 whose content:encoded is a full Instant Article document per published story.",
    },
    async ({ req, url, query }) => {
      const db = await getDb();
      const env = getEnv();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
      const { xml, tags } = await buildInstantArticlesFeed(db, { accountId, appUrl: env.APP_URL, selfUrl: url.toString(), ...query });
      return contentResponse(req, xml, { contentType: RSS_CONTENT_TYPE, tags });
    },
  ),
});
