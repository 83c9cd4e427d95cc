// GET /api/v1/entity/<id> – one entity, as the whole body (what @quintype/backend's getEntity reads)
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getPublicEntity } from "@/server/publishing/entities";
import { ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    { params: ZEntityParams, summary: "One entity by id, the entity itself as the body." },
    async ({ db, ctx, params }) => {
      const entity = await getPublicEntity(db, { accountId: ctx.accountId, id: params.id });
      return { body: entity, tags: [`e/${params.id}`] };
    },
  ),
});
