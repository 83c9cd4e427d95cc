// GET /stories.rss – RSS 2.0 feed of the newest published stories (?section=, ?tag=, ?limit=)
import { getEnv } from "@/env.js";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZFeedQuery } from "@/server/publishing/feeds/feeds.schema";
import { buildStoriesRss, RSS_CONTENT_TYPE } from "@/server/publishing/feeds/rss";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZFeedQuery,
      produces: "any",
      summary:
        "RSS 2.0 feed of the newest published stories, optionally of one section or tag (limit default 20, at most 100).",
    },
    async ({ req, db, publisher, url, query }) => {
      const env = getEnv();
      const { accountId } = publisher;
      const { xml, tags } = await buildStoriesRss(db, {
        accountId,
        appUrl: env.APP_URL,
        selfUrl: url.toString(),
        ...query,
      });
      return contentResponse(req, xml, { contentType: RSS_CONTENT_TYPE, tags });
    },
  ),
});
