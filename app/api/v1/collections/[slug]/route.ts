// GET /api/v1/collections/{slug} – a collection with its page of items (stories and nested collections)
import { AppError } from "@/server/errors";
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { getPublishedCollection } from "@/server/publishing/collections";
import { ZCollectionParams, ZCollectionQuery } from "@/server/publishing/content.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZCollectionParams,
      query: ZCollectionQuery,
      summary:
        "A collection at the top level: {id, slug, name, summary, template, automated, rules, total-count, items, collection-cache-keys, …}. item-type, exclude-story-ids, story-fields, limit (20, at most 100), offset.",
    },
    async ({ db, ctx, params, query }) => {
      const found = await getPublishedCollection(db, { ctx, slug: params.slug, query });
      if (!found) throw new AppError("NOT_FOUND", "No collection with this slug.");
      return { body: found.collection, tags: found.tags };
    },
  ),
});
