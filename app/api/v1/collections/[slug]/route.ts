// GET /api/v1/collections/{slug} – a collection with its page of items (stories and nested collections)
import { AppError } from "@/server/errors";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { getPublishedCollection } from "@/server/publishing/collections";
import { ZCollectionParams, ZCollectionQuery } from "@/server/publishing/content.schema";
import { contentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZCollectionParams,
      query: ZCollectionQuery,
      summary:
        "A collection at the top level: {id, slug, name, summary, template, automated, rules, total-count, items, collection-cache-keys, …}. item-type, exclude-story-ids, story-fields, limit (20, at most 100), offset.",
    },
    async ({ req, db, publisher, params, query }) => {
      const ctx = contentContext(publisher);
      const found = await getPublishedCollection(db, { ctx, slug: params.slug, query });
      if (!found) throw new AppError("NOT_FOUND", "No collection with this slug.");
      return contentResponse(req, found.collection, { tags: found.tags });
    },
  ),
});
