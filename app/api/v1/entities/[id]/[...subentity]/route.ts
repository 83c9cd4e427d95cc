// GET /api/v1/entities/<id>/<relation>[/<id>/<relation>…] – related entities: {relationships:{self, <relation>:[…]}}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getEntityRelationships } from "@/server/publishing/entities";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZEntityRelationshipParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZEntityRelationshipParams,
      summary: "Walk named relationships from an entity (relation names, each optionally followed by the id of one entity it leads to).",
    },
    async ({ req, params }) => {
      const db = await getDb();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
      const body = await getEntityRelationships(db, { accountId, id: params.id, path: params.subentity });
      return contentResponse(req, body, { tags: ["entities", `e/${params.id}`] });
    },
  ),
});
