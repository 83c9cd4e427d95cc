// GET /api/v1/entities – entities by name, filtered by q, id, ids and type: {entities, total}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listEntities } from "@/server/publishing/entities";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZEntityListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", query: ZEntityListQuery, summary: "Entities by name; q (name), id, ids (comma list), type filter; limit default 20, at most 100." },
    async ({ req, query }) => {
      const db = await getDb();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
      const body = await listEntities(db, { accountId, ...query });
      return contentResponse(req, body, { tags: ["entities", ...body.entities.map((e) => `e/${String(e.id)}`)] });
    },
  ),
});
