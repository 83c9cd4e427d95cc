// GET /api/v1/amp/story?slug=… – a published story as an AMP HTML page
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildAmpStory } from "@/server/publishing/feeds/amp";
import { ZAmpStoryQuery } from "@/server/publishing/feeds/feeds.schema";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      query: ZAmpStoryQuery,
      produces: "any",
      summary: "A published story as a valid AMP HTML page (404 for unknown or unpublished slugs).",
    },
    async ({ req, query }) => {
      const db = await getDb();
      const env = getEnv();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
      const { html, tags } = await buildAmpStory(db, { accountId, appUrl: env.APP_URL, slug: query.slug });
      return contentResponse(req, html, { contentType: "text/html; charset=utf-8", tags });
    },
  ),
});
