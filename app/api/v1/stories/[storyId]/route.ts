// GET /api/v1/stories/{story-id} – one published story by its UUID
import { contentRoute, gatedStoryAnswer } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZFieldsQuery, ZStoryIdParams } from "@/server/publishing/content.schema";
import { getStoryById } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZStoryIdParams,
      query: ZFieldsQuery,
      summary:
        "One published story by id: {story}; 400 for a non-UUID, 404 when not published. With check-access=true&key=<client key> (and the reader's accesstype_jwt, readerId, disable-meter, count): {story, access} when the reader may read it, else 402 {error: PAYMENT_REQUIRED, access} without the story. A story not public goes whole to the server key and a granted reader; to others (unless the account serves full stories) its free part with paywall: {continues, free-elements, total-elements}.",
    },
    async ({ db, ctx, search, params, query }) =>
      gatedStoryAnswer(
        { db, search, ctx },
        (ctx) => getStoryById(db, { ctx, id: params.storyId, fields: query.fields }),
        params.storyId,
      ),
  ),
});
