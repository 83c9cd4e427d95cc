// GET /api/v1/stories-by-slug – one published story by its slug (slugs may contain "/")
import { contentRoute, gatedStoryAnswer } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZStoryBySlugQuery } from "@/server/publishing/content.schema";
import { getStoryBySlug } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZStoryBySlugQuery,
      summary:
        "One published story by slug: {story}; 404 when no published story has it. With check-access=true&key=<client key> (and the reader's accesstype_jwt, readerId, disable-meter, count): {story, access} when the reader may read it, else 402 {error: PAYMENT_REQUIRED, access} without the story. A story not public goes whole to the server key and a granted reader; to others (unless the account serves full stories) its free part with paywall: {continues, free-elements, total-elements}.",
    },
    async ({ db, ctx, search, query }) =>
      gatedStoryAnswer({ db, search, ctx }, (ctx) =>
        getStoryBySlug(db, { ctx, slug: query.slug, fields: query.fields }),
      ),
  ),
});
