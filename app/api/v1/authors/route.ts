// GET /api/v1/authors – the publisher's authors, by name: {limit, offset, total, authors}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { listPublicAuthors } from "@/server/publishing/authors";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZAuthorListQuery,
      summary: "The publisher's authors by name (limit default 20, at most 100; q filters by name).",
    },
    async ({ db, ctx, query }) => {
      const body = await listPublicAuthors(db, { accountId: ctx.accountId, ...query });
      return { body, tags: ["authors", ...body.authors.map((a) => `a/${a.id}`)] };
    },
  ),
});
