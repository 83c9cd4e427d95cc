// GET /api/authors – the publisher's authors as a bare JSON array (what @quintype/backend's getAuthors maps over)
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { listPublicAuthors } from "@/server/publishing/authors";
import { ZAuthorListQuery } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      query: ZAuthorListQuery,
      summary: "The publisher's authors by name, as a bare array (limit default 20, at most 100).",
    },
    async ({ req, db, publisher, query }) => {
      const { accountId } = publisher;
      const { authors } = await listPublicAuthors(db, { accountId, ...query });
      return contentResponse(req, authors, { tags: ["authors", ...authors.map((a) => `a/${a.id}`)] });
    },
  ),
});
