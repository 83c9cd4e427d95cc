// GET /api/v1/stories-by-slug – one published story by its slug (slugs may contain "/")
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoryBySlugQuery } from "@/server/publishing/content.schema";
import { getStoryBySlug, resolveContentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", query: ZStoryBySlugQuery, summary: "One published story by slug: {story}; 404 when no published story has it." },
    async ({ req, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const story = await getStoryBySlug(db, ctx, query.slug, query.fields);
      return contentResponse(req, { story }, { tags: [`s/${String(story.id)}`] });
    },
  ),
});
