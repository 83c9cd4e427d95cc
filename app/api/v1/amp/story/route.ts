// GET /api/v1/amp/story?slug=… – a published story as an AMP HTML page
import { getEnv } from "@/env.js";
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildAmpStory } from "@/server/publishing/feeds/amp";
import { ZAmpStoryQuery } from "@/server/publishing/feeds/feeds.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZAmpStoryQuery,
      produces: "any",
      summary: "A published story as a valid AMP HTML page (404 for unknown or unpublished slugs).",
    },
    async ({ db, ctx, query }) => {
      const env = getEnv();
      const { html, tags } = await buildAmpStory(db, {
        accountId: ctx.accountId,
        appUrl: env.APP_URL,
        slug: query.slug,
      });
      return { body: html, contentType: "text/html; charset=utf-8", tags };
    },
  ),
});
