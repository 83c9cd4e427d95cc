// GET /api/v1/authors/<author-id> – one author: {author}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getAuthor } from "@/server/publishing/authors";
import { ZAuthorParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "publisher", params: ZAuthorParams, summary: "One author by id." },
    async ({ req, db, publisher, params }) => {
      const { accountId } = publisher;
      const author = await getAuthor(db, { accountId, authorId: params.authorId });
      return contentResponse(req, { author }, { tags: [`a/${author.id}`] });
    },
  ),
});
