// GET /api/v1/stories/{story-id}/related-stories – published stories sharing a section or tag
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZRelatedQuery, ZStoryIdParams } from "@/server/publishing/content.schema";
import { listRelatedStories, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZStoryIdParams,
      query: ZRelatedQuery,
      summary:
        "Stories related to a published story (same section-id or the story's sections, or a shared tag), newest first: {related-stories}. limit 5 by default.",
    },
    async ({ db, ctx, params, query }) => {
      const related = await listRelatedStories(db, {
        ctx,
        storyId: params.storyId,
        sectionId: query["section-id"],
        fields: query.fields,
        limit: query.limit,
        offset: query.offset,
      });
      return { body: { "related-stories": related }, tags: [`s/${params.storyId}`, "stories", ...storyTags(related)] };
    },
  ),
});
