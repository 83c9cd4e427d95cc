// GET /api/v1/stories-by-slug – one published story by its slug (slugs may contain "/")
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoryBySlugQuery } from "@/server/publishing/content.schema";
import { contentContext, getStoryBySlug } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZStoryBySlugQuery,
      summary: "One published story by slug: {story}; 404 when no published story has it.",
    },
    async ({ req, db, publisher, query }) => {
      const ctx = contentContext(publisher);
      const story = await getStoryBySlug(db, { ctx, slug: query.slug, fields: query.fields });
      return contentResponse(req, { story }, { tags: [`s/${String(story.id)}`] });
    },
  ),
});
