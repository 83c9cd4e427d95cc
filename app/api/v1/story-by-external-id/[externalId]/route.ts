// GET /api/v1/story-by-external-id/{external-id} – one published story by the id it was imported with
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZExternalIdParams, ZFieldsQuery } from "@/server/publishing/content.schema";
import { getStoryByExternalId, resolveContentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", params: ZExternalIdParams, query: ZFieldsQuery, summary: "One published story by its external id: {story}; 404 when unknown." },
    async ({ req, params, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const story = await getStoryByExternalId(db, ctx, params.externalId, query.fields);
      return contentResponse(req, { story }, { tags: [`s/${String(story.id)}`] });
    },
  ),
});
