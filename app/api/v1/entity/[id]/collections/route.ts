// GET /api/v1/entity/<id>/collections – collections the entity's published stories appear in: {collections, total}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getEntityCollections } from "@/server/publishing/entities";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZEntityCollectionsQuery, ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZEntityParams,
      query: ZEntityCollectionsQuery,
      summary: "Collections holding, or selecting by their rules, a published story linked to the entity (sort-by, order, limit, offset).",
    },
    async ({ req, params, query }) => {
      const db = await getDb();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
      const body = await getEntityCollections(db, { accountId, id: params.id, ...query });
      return contentResponse(req, body, { tags: [`e/${params.id}`, ...body.collections.map((c) => `c/${c.id}`)] });
    },
  ),
});
