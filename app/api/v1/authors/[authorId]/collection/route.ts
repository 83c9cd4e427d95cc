// GET /api/v1/authors/<author-id>/collection – the author's published stories, newest first, as a collection
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getAuthorCollection } from "@/server/publishing/authors";
import { ZAuthorCollectionQuery, ZAuthorParams } from "@/server/publishing/reference.schema";
import { contentContext } from "@/server/publishing/stories";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZAuthorParams,
      query: ZAuthorCollectionQuery,
      summary:
        "The author's published stories, newest first, as a collection {id, slug, name, items:[{id, type, story}], total-count} (limit default 20, at most 100).",
    },
    async ({ req, db, publisher, params, query }) => {
      const ctx = contentContext(publisher);
      const body = await getAuthorCollection(db, { ctx, authorId: params.authorId, ...query });
      // "stories": what the author has published changes with every publication.
      return contentResponse(req, body, {
        tags: [`a/${body.id}`, "stories", ...body.items.map((item) => `s/${item.id}`)],
      });
    },
  ),
});
