// GET /api/v1/breaking-news – published breaking news that has not expired, newest first
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZBreakingNewsQuery } from "@/server/publishing/content.schema";
import { listBreakingNews, resolveContentContext, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", query: ZBreakingNewsQuery, summary: "Breaking news: published stories marked breaking whose expiry has not passed, newest first: {stories}." },
    async ({ req, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const stories = await listBreakingNews(db, ctx, query);
      return contentResponse(req, { stories }, { tags: ["stories", ...storyTags(stories)] });
    },
  ),
});
