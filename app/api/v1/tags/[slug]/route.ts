// GET /api/v1/tags/<slug> – the tag with this slug: {tags:[{id, name, meta-description, slug}]}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { ZTagParams } from "@/server/publishing/reference.schema";
import { getTagBySlug } from "@/server/publishing/tags";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "publisher", params: ZTagParams, summary: "The tag with this slug, in a one-item list." },
    async ({ req, db, publisher, params }) => {
      const { accountId } = publisher;
      const body = await getTagBySlug(db, { accountId, slug: params.slug });
      return contentResponse(req, body, { tags: body.tags.map((t) => `t/${t.id}`) });
    },
  ),
});
