// GET /api/v1/advanced-search – the search engine of /api/v1/search, answered as {total, items}
import { searchRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: searchRoute(
    "Search published stories (same parameters as /api/v1/search; sort also latest-published, earliest-published) → {total, from, size, items}.",
    ({ total, stories }, query) => ({ total, from: query.offset, size: query.limit, items: stories }),
  ),
});
