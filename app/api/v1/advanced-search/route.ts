// GET /api/v1/advanced-search – the search engine of /api/v1/search, answered as {total, items}
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
        "Search published stories (same parameters as /api/v1/search; sort also latest-published, earliest-published) → {total, from, size, items}.",
    },
    async ({ req, db, publisher, query }) => {
      const ctx = contentContext(publisher);
      const { total, stories } = await searchStories(db, { ctx, ...query });
      return contentResponse(
        req,
        { total, from: query.offset, size: query.limit, items: stories },
        { tags: ["stories", ...storyTags(stories)] },
      );
    },
  ),
});
