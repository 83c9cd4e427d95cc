// GET /api/v1/stories/{story-id}/attributes – a published story's attributes
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZStoryIdParams } from "@/server/publishing/content.schema";
import { getStoryAttributes } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZStoryIdParams,
      summary:
        'A published story\'s attributes: {"story-id", "story-attributes"} (the story\'s metadata["story-attributes"]).',
    },
    async ({ db, ctx, params }) => {
      return { body: await getStoryAttributes(db, { ctx, storyId: params.storyId }), tags: [`s/${params.storyId}`] };
    },
  ),
});
