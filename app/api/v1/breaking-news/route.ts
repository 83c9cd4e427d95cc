// GET /api/v1/breaking-news – published breaking news that has not expired, newest first
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZBreakingNewsQuery } from "@/server/publishing/content.schema";
import { contentContext, listBreakingNews, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZBreakingNewsQuery,
      summary: "Breaking news: published stories marked breaking whose expiry has not passed, newest first: {stories}.",
    },
    async ({ req, db, publisher, query }) => {
      const ctx = contentContext(publisher);
      const stories = await listBreakingNews(db, { ctx, ...query });
      return contentResponse(req, { stories }, { tags: ["stories", ...storyTags(stories)] });
    },
  ),
});
