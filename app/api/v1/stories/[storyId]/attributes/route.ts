// GET /api/v1/stories/{story-id}/attributes – a published story's attributes
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoryIdParams } from "@/server/publishing/content.schema";
import { getStoryAttributes, resolveContentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", params: ZStoryIdParams, summary: 'A published story\'s attributes: {"story-id", "story-attributes"} (the story\'s metadata["story-attributes"]).' },
    async ({ req, params }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      return contentResponse(req, await getStoryAttributes(db, ctx, params.storyId), { tags: [`s/${params.storyId}`] });
    },
  ),
});
