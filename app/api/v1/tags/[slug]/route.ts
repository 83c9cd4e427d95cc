// GET /api/v1/tags/<slug> – the tag with this slug: {tags:[{id, name, meta-description, slug}]}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZTagParams } from "@/server/publishing/reference.schema";
import { getTagBySlug } from "@/server/publishing/tags";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    { params: ZTagParams, summary: "The tag with this slug, in a one-item list." },
    async ({ db, ctx, params }) => {
      const body = await getTagBySlug(db, { accountId: ctx.accountId, slug: params.slug });
      return { body, tags: body.tags.map((t) => `t/${t.id}`) };
    },
  ),
});
