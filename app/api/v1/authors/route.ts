// GET /api/v1/authors – the publisher's authors, by name: {limit, offset, total, authors}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listAuthors } from "@/server/publishing/authors";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", query: ZAuthorListQuery, summary: "The publisher's authors by name (limit default 20, at most 100; q filters by name)." },
    async ({ req, query }) => {
      const db = await getDb();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
      const body = await listAuthors(db, { accountId, ...query });
      return contentResponse(req, body, { tags: ["authors", ...body.authors.map((a) => `a/${a.id}`)] });
    },
  ),
});
