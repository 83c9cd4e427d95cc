// GET /api/v1/stories/{story-id} – one published story by its UUID
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZFieldsQuery, ZStoryIdParams } from "@/server/publishing/content.schema";
import { getStoryById, resolveContentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", params: ZStoryIdParams, query: ZFieldsQuery, summary: "One published story by id: {story}; 400 for a non-UUID, 404 when not published." },
    async ({ req, params, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const story = await getStoryById(db, ctx, params.storyId, query.fields);
      return contentResponse(req, { story }, { tags: [`s/${params.storyId}`] });
    },
  ),
});
