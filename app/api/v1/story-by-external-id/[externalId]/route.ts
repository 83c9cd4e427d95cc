// GET /api/v1/story-by-external-id/{external-id} – one published story by the id it was imported with
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZExternalIdParams, ZFieldsQuery } from "@/server/publishing/content.schema";
import { contentContext, getStoryByExternalId } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZExternalIdParams,
      query: ZFieldsQuery,
      summary: "One published story by its external id: {story}; 404 when unknown.",
    },
    async ({ req, db, publisher, params, query }) => {
      const ctx = contentContext(publisher);
      const story = await getStoryByExternalId(db, { ctx, externalId: params.externalId, fields: query.fields });
      return contentResponse(req, { story }, { tags: [`s/${String(story.id)}`] });
    },
  ),
});
