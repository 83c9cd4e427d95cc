// GET /api/v1/story-by-external-id/{external-id} – one published story by the id it was imported with
import { contentRoute, storyAnswer } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZExternalIdParams, ZFieldsQuery } from "@/server/publishing/content.schema";
import { getStoryByExternalId } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZExternalIdParams,
      query: ZFieldsQuery,
      summary: "One published story by its external id: {story}; 404 when unknown.",
    },
    async ({ db, ctx, params, query }) =>
      storyAnswer(await getStoryByExternalId(db, { ctx, externalId: params.externalId, fields: query.fields })),
  ),
});
