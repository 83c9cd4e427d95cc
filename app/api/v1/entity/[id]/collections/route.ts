// GET /api/v1/entity/<id>/collections – collections the entity's published stories appear in: {collections, total}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getEntityCollections } from "@/server/publishing/entities";
import { ZEntityCollectionsQuery, ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZEntityParams,
      query: ZEntityCollectionsQuery,
      summary:
        "Collections holding, or selecting by their rules, a published story linked to the entity (sort-by, order, limit, offset).",
    },
    async ({ db, ctx, params, query }) => {
      const body = await getEntityCollections(db, { accountId: ctx.accountId, id: params.id, ...query });
      return { body, tags: [`e/${params.id}`, "collections", "stories", ...body.collections.map((c) => `c/${c.id}`)] };
    },
  ),
});
