// GET /api/v1/stories/{story-id} – one published story by its UUID
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZFieldsQuery, ZStoryIdParams } from "@/server/publishing/content.schema";
import { contentContext, getStoryById } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZStoryIdParams,
      query: ZFieldsQuery,
      summary: "One published story by id: {story}; 400 for a non-UUID, 404 when not published.",
    },
    async ({ req, db, publisher, params, query }) => {
      const ctx = contentContext(publisher);
      const story = await getStoryById(db, { ctx, id: params.storyId, fields: query.fields });
      return contentResponse(req, { story }, { tags: [`s/${params.storyId}`] });
    },
  ),
});
