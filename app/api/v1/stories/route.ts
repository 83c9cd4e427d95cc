// GET /api/v1/stories – published stories, filtered by section, tag or template, newest first
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoriesQuery } from "@/server/publishing/content.schema";
import { contentContext, listPublishedStories, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZStoriesQuery,
      summary:
        "Published stories: section-id or section (slug), tag, template, story-order or story-group, randomize, not-story-content-ids, fields, limit (20, at most 100), offset.",
    },
    async ({ req, db, publisher, query }) => {
      const ctx = contentContext(publisher);
      const stories = await listPublishedStories(db, { ctx, ...query });
      return contentResponse(req, { stories }, { tags: ["stories", ...storyTags(stories)] });
    },
  ),
});
