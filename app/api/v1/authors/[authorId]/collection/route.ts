// GET /api/v1/authors/<author-id>/collection – the author's published stories, newest first, as a collection
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getAuthorCollection } from "@/server/publishing/authors";
import { getPublisher, resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZAuthorCollectionQuery, ZAuthorParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZAuthorParams,
      query: ZAuthorCollectionQuery,
      summary: "The author's published stories, newest first, as a collection {id, slug, name, items:[{id, type, story}], total-count} (limit default 20, at most 100).",
    },
    async ({ req, params, query }) => {
      const db = await getDb();
      const env = getEnv();
      const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
      const publisher = await getPublisher(db, accountId, { appUrl: env.APP_URL });
      const body = await getAuthorCollection(db, { accountId, authorId: params.authorId, view: { publisherId: accountId, siteUrl: publisher.siteUrl }, ...query });
      return contentResponse(req, body, { tags: [`a/${body.id}`, ...body.items.map((item) => `s/${item.id}`)] });
    },
  ),
});
