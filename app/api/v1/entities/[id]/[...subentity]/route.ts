// GET /api/v1/entities/<id>/<relation>[/<id>/<relation>…] – related entities: {relationships:{self, <relation>:[…]}}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getEntityRelationships } from "@/server/publishing/entities";
import { ZEntityRelationshipParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZEntityRelationshipParams,
      summary:
        "Walk named relationships from an entity (relation names, each optionally followed by the id of one entity it leads to).",
    },
    async ({ db, ctx, params }) => {
      const body = await getEntityRelationships(db, {
        accountId: ctx.accountId,
        id: params.id,
        path: params.subentity,
      });
      return { body, tags: ["entities", `e/${params.id}`] };
    },
  ),
});
