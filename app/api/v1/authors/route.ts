// GET /api/v1/authors – the publisher's authors, by name: {limit, offset, total, authors}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listPublicAuthors } from "@/server/publishing/authors";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZAuthorListQuery,
      summary: "The publisher's authors by name (limit default 20, at most 100; q filters by name).",
    },
    async ({ req, db, publisher, query }) => {
      const { accountId } = publisher;
      const body = await listPublicAuthors(db, { accountId, ...query });
      return contentResponse(req, body, { tags: ["authors", ...body.authors.map((a) => `a/${a.id}`)] });
    },
  ),
});
