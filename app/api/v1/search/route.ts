// GET /api/v1/search – full-text search over published stories
import { searchRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: searchRoute(
    "Search published stories: q, author (slug or name), author-id, section-id, published-before/after (epoch ms), sort, fields, limit, offset → {results: {from, size, total, stories, term}}.",
    ({ total, stories }, query) => ({
      results: { from: query.offset, size: query.limit, total, stories, term: query.q ?? "" },
    }),
  ),
});
