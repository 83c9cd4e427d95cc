// GET /api/v1/authors/<author-id> – one author: {author}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getAuthor } from "@/server/publishing/authors";
import { ZAuthorParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute({ params: ZAuthorParams, summary: "One author by id." }, async ({ db, ctx, params }) => {
    const author = await getAuthor(db, { accountId: ctx.accountId, authorId: params.authorId });
    return { body: { author }, tags: [`a/${author.id}`] };
  }),
});
