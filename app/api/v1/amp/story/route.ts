// GET /api/v1/amp/story?slug=… – a published story as an AMP HTML page
import { getEnv } from "@/env.js";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildAmpStory } from "@/server/publishing/feeds/amp";
import { ZAmpStoryQuery } from "@/server/publishing/feeds/feeds.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZAmpStoryQuery,
      produces: "any",
      summary: "A published story as a valid AMP HTML page (404 for unknown or unpublished slugs).",
    },
    async ({ req, db, publisher, query }) => {
      const env = getEnv();
      const { accountId } = publisher;
      const { html, tags } = await buildAmpStory(db, { accountId, appUrl: env.APP_URL, slug: query.slug });
      return contentResponse(req, html, { contentType: "text/html; charset=utf-8", tags });
    },
  ),
});
