// GET /api/v1/entities – entities by name, filtered by q, id, ids and type: {entities, total}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listPublicEntities } from "@/server/publishing/entities";
import { ZEntityListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZEntityListQuery,
      summary: "Entities by name; q (name), id, ids (comma list), type filter; limit default 20, at most 100.",
    },
    async ({ req, db, publisher, query }) => {
      const { accountId } = publisher;
      const body = await listPublicEntities(db, { accountId, ...query });
      return contentResponse(req, body, { tags: ["entities", ...body.entities.map((e) => `e/${String(e.id)}`)] });
    },
  ),
});
