// GET /api/v1/search – full-text search over published stories
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZSearchQuery } from "@/server/publishing/content.schema";
import { searchStories } from "@/server/publishing/search";
import { storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZSearchQuery,
      summary:
        "Search published stories: q, author (slug or name), author-id, section-id, published-before/after (epoch ms), sort, fields, limit, offset → {results: {from, size, total, stories, term}}.",
    },
    async ({ db, ctx, query }) => {
      const { total, stories } = await searchStories(db, { ctx, ...query });
      return {
        body: { results: { from: query.offset, size: query.limit, total, stories, term: query.q ?? "" } },
        tags: ["stories", ...storyTags(stories)],
      };
    },
  ),
});
