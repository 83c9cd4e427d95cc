// GET /api/v1/entity/<id>/collections – collections the entity's published stories appear in: {collections, total}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getEntityCollections } from "@/server/publishing/entities";
import { ZEntityCollectionsQuery, ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZEntityParams,
      query: ZEntityCollectionsQuery,
      summary:
        "Collections holding, or selecting by their rules, a published story linked to the entity (sort-by, order, limit, offset).",
    },
    async ({ req, db, publisher, params, query }) => {
      const { accountId } = publisher;
      const body = await getEntityCollections(db, { accountId, id: params.id, ...query });
      return contentResponse(req, body, { tags: [`e/${params.id}`, ...body.collections.map((c) => `c/${c.id}`)] });
    },
  ),
});
