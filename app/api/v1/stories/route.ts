// GET /api/v1/stories – published stories, filtered by section, tag or template, newest first
import { contentRoute, storiesAnswer } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZStoriesQuery } from "@/server/publishing/content.schema";
import { listPublishedStories } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZStoriesQuery,
      summary:
        "Published stories: section-id or section (slug), tag, template, story-order or story-group, randomize, not-story-content-ids, fields, limit (20, at most 100), offset.",
    },
    async ({ db, ctx, query }) => storiesAnswer(await listPublishedStories(db, { ctx, ...query })),
  ),
});
