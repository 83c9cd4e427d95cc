// GET /api/v1/collections/{slug} – a collection with its page of items (stories and nested collections)
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { loadCollection } from "@/server/publishing/collections";
import { ZCollectionParams, ZCollectionQuery } from "@/server/publishing/content.schema";
import { resolveContentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZCollectionParams,
      query: ZCollectionQuery,
      summary: "A collection at the top level: {id, slug, name, summary, template, automated, rules, total-count, items, collection-cache-keys, …}. item-type, exclude-story-ids, story-fields, limit (20, at most 100), offset.",
    },
    async ({ req, params, query }) => {
      const db = await getDb();
      const ctx = await resolveContentContext(db, { host: req.headers.get("host") });
      const found = await loadCollection(db, ctx, params.slug, query);
      if (!found) throw new AppError("NOT_FOUND", "No collection with this slug.");
      return contentResponse(req, found.collection, { tags: found.tags });
    },
  ),
});
