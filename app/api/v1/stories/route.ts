// GET /api/v1/stories – published stories, filtered by section, tag or template, newest first
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoriesQuery } from "@/server/publishing/content.schema";
import { listStories, resolveContentContext, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      query: ZStoriesQuery,
      summary: "Published stories: section-id or section (slug), tag, template, story-order or story-group, randomize, not-story-content-ids, fields, limit (20, at most 100), offset.",
    },
    async ({ req, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const stories = await listStories(db, ctx, query);
      return contentResponse(req, { stories }, { tags: ["stories", ...storyTags(stories)] });
    },
  ),
});
