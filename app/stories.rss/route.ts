// GET /stories.rss – RSS 2.0 feed of the newest published stories (?section=, ?tag=, ?limit=)
import { feedRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildStoriesRss } from "@/server/publishing/feeds/rss";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: feedRoute(
    "RSS 2.0 feed of the newest published stories, optionally of one section or tag (limit default 20, at most 100).",
    buildStoriesRss,
  ),
});
