// GET /api/v1/amp/story?slug=… – a published story as an AMP HTML page, or as JSON holding that page
import { getEnv } from "@/env.js";
import { contentRoute } from "@/server/http/content-routes";
import { preferredMediaType } from "@/server/http/negotiate";
import { routes } from "@/server/http/route";
import { buildAmpStory } from "@/server/publishing/feeds/amp";
import { ZAmpStoryQuery } from "@/server/publishing/feeds/feeds.schema";

/** One URL, two representations: caches must key on Accept. */
const VARY = "Accept, Accept-Encoding";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZAmpStoryQuery,
      produces: "any",
      summary:
        'A published story as a valid AMP HTML page (404 for unknown or unpublished slugs). When Accept prefers application/json (q-values honoured), JSON instead: {id, "story-content-id", slug, headline, url, "canonical-url", "published-at", "last-published-at", "amp-html"}, "amp-html" being the same page. Vary: Accept.',
    },
    async ({ req, db, ctx, query }) => {
      const { html, tags, story } = await buildAmpStory(db, {
        accountId: ctx.accountId,
        appUrl: getEnv().APP_URL,
        slug: query.slug,
      });
      const headers = { Vary: VARY };
      if (preferredMediaType(req.headers.get("accept"), ["text/html", "application/json"]) === "application/json")
        return { body: { ...story, "amp-html": html }, tags, headers };
      return { body: html, contentType: "text/html; charset=utf-8", tags, headers };
    },
  ),
});
