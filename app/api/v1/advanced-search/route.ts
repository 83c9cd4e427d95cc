// GET /api/v1/advanced-search – the search engine of /api/v1/search, answered as {total, items}
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
        "Search published stories (same parameters as /api/v1/search; sort also latest-published, earliest-published) → {total, from, size, items}.",
    },
    async ({ db, ctx, query }) => {
      const { total, stories } = await searchStories(db, { ctx, ...query });
      return {
        body: { total, from: query.offset, size: query.limit, items: stories },
        tags: ["stories", ...storyTags(stories)],
      };
    },
  ),
});
