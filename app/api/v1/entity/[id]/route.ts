// GET /api/v1/entity/<id> – one entity, as the whole body (what @quintype/backend's getEntity reads)
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getEntity } from "@/server/publishing/entities";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZEntityParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", params: ZEntityParams, summary: "One entity by id, the entity itself as the body." }, async ({ req, params }) => {
    const db = await getDb();
    const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
    const entity = await getEntity(db, { accountId, id: params.id });
    return contentResponse(req, entity, { tags: [`e/${params.id}`] });
  }),
});
