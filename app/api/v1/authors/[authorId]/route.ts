// GET /api/v1/authors/<author-id> – one author: {author}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getAuthor } from "@/server/publishing/authors";
import { resolvePublisherAccountId } from "@/server/publishing/publisher";
import { ZAuthorParams } from "@/server/publishing/reference.schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", params: ZAuthorParams, summary: "One author by id." }, async ({ req, params }) => {
    const db = await getDb();
    const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
    const author = await getAuthor(db, { accountId, authorId: params.authorId });
    return contentResponse(req, { author }, { tags: [`a/${author.id}`] });
  }),
});
