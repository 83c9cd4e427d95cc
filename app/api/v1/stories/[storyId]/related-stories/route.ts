// GET /api/v1/stories/{story-id}/related-stories – published stories sharing a section or tag
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZRelatedQuery, ZStoryIdParams } from "@/server/publishing/content.schema";
import { contentContext, listRelatedStories, storyTags } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZStoryIdParams,
      query: ZRelatedQuery,
      summary:
        "Stories related to a published story (same section-id or the story's sections, or a shared tag), newest first: {related-stories}. limit 5 by default.",
    },
    async ({ req, db, publisher, params, query }) => {
      const ctx = contentContext(publisher);
      const related = await listRelatedStories(db, {
        ctx,
        storyId: params.storyId,
        sectionId: query["section-id"],
        fields: query.fields,
        limit: query.limit,
        offset: query.offset,
      });
      return contentResponse(
        req,
        { "related-stories": related },
        { tags: [`s/${params.storyId}`, "stories", ...storyTags(related)] },
      );
    },
  ),
});
