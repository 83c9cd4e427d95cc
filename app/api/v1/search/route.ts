// GET /api/v1/search – full-text search over published stories
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZSearchQuery } from "@/server/publishing/content.schema";
import { searchStories } from "@/server/publishing/search";
import { contentContext, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZSearchQuery,
      summary:
        "Search published stories: q, author (slug or name), author-id, section-id, published-before/after (epoch ms), sort, fields, limit, offset → {results: {from, size, total, stories, term}}.",
    },
    async ({ req, db, publisher, query }) => {
      const ctx = contentContext(publisher);
      const { total, stories } = await searchStories(db, { ctx, ...query });
      return contentResponse(
        req,
        { results: { from: query.offset, size: query.limit, total, stories, term: query.q ?? "" } },
        { tags: ["stories", ...storyTags(stories)] },
      );
    },
  ),
});
