// GET /api/v1/entity/<id> – one entity, as the whole body (what @quintype/backend's getEntity reads)
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getPublicEntity } from "@/server/publishing/entities";
import { ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "publisher", params: ZEntityParams, summary: "One entity by id, the entity itself as the body." },
    async ({ req, db, publisher, params }) => {
      const { accountId } = publisher;
      const entity = await getPublicEntity(db, { accountId, id: params.id });
      return contentResponse(req, entity, { tags: [`e/${params.id}`] });
    },
  ),
});
