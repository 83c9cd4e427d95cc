// GET /api/v1/authors/<author-id>/collection – the author's published stories, newest first, as a collection
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getAuthorCollection } from "@/server/publishing/authors";
import { ZAuthorCollectionQuery, ZAuthorParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZAuthorParams,
      query: ZAuthorCollectionQuery,
      summary:
        "The author's published stories, newest first, as a collection {id, slug, name, items:[{id, type, story}], total-count} (limit default 20, at most 100).",
    },
    async ({ db, ctx, params, query }) => {
      const body = await getAuthorCollection(db, { ctx, authorId: params.authorId, ...query });
      // "stories": what the author has published changes with every publication.
      return { body, tags: [`a/${body.id}`, "stories", ...body.items.map((item) => `s/${item.id}`)] };
    },
  ),
});
