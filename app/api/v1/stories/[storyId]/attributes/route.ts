// GET /api/v1/stories/{story-id}/attributes – a published story's attributes
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoryIdParams } from "@/server/publishing/content.schema";
import { contentContext, getStoryAttributes } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZStoryIdParams,
      summary:
        'A published story\'s attributes: {"story-id", "story-attributes"} (the story\'s metadata["story-attributes"]).',
    },
    async ({ req, db, publisher, params }) => {
      const ctx = contentContext(publisher);
      return contentResponse(req, await getStoryAttributes(db, { ctx, storyId: params.storyId }), {
        tags: [`s/${params.storyId}`],
      });
    },
  ),
});
