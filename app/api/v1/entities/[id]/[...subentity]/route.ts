// GET /api/v1/entities/<id>/<relation>[/<id>/<relation>…] – related entities: {relationships:{self, <relation>:[…]}}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getEntityRelationships } from "@/server/publishing/entities";
import { ZEntityRelationshipParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZEntityRelationshipParams,
      summary:
        "Walk named relationships from an entity (relation names, each optionally followed by the id of one entity it leads to).",
    },
    async ({ req, db, publisher, params }) => {
      const { accountId } = publisher;
      const body = await getEntityRelationships(db, { accountId, id: params.id, path: params.subentity });
      return contentResponse(req, body, { tags: ["entities", `e/${params.id}`] });
    },
  ),
});
