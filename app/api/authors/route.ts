// GET /api/authors – the publisher's authors as a bare JSON array (what @quintype/backend's getAuthors maps over)
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listAuthors } from "@/server/publishing/authors";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", query: ZAuthorListQuery, summary: "The publisher's authors by name, as a bare array (limit default 20, at most 100)." },
    async ({ req, query }) => {
      const db = await getDb();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
      const { authors } = await listAuthors(db, { accountId, ...query });
      return contentResponse(req, authors, { tags: ["authors", ...authors.map((a) => `a/${a.id}`)] });
    },
  ),
});
