// GET /api/instant-articles.rss – the newest published stories as Instant Articles (RSS 2.0)
import { feedRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildInstantArticlesFeed } from "@/server/publishing/feeds/instant-articles";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: feedRoute(
    "Instant Articles feed: RSS 2.0 whose content:encoded is a full Instant Article document per published story.",
    buildInstantArticlesFeed,
  ),
});
