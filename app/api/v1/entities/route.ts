// GET /api/v1/entities – entities by name, filtered by q, id, ids and type: {entities, total}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { listPublicEntities } from "@/server/publishing/entities";
import { ZEntityListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZEntityListQuery,
      summary: "Entities by name; q (name), id, ids (comma list), type filter; limit default 20, at most 100.",
    },
    async ({ db, ctx, query }) => {
      const body = await listPublicEntities(db, { accountId: ctx.accountId, ...query });
      return { body, tags: ["entities", ...body.entities.map((e) => `e/${String(e.id)}`)] };
    },
  ),
});
