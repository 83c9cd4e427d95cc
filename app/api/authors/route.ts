// GET /api/authors – the publisher's authors as a bare JSON array (what @quintype/backend's getAuthors maps over)
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { listPublicAuthors } from "@/server/publishing/authors";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZAuthorListQuery,
      summary: "The publisher's authors by name, as a bare array (limit default 20, at most 100).",
    },
    async ({ db, ctx, query }) => {
      const { authors } = await listPublicAuthors(db, { accountId: ctx.accountId, ...query });
      return { body: authors, tags: ["authors", ...authors.map((a) => `a/${a.id}`)] };
    },
  ),
});
