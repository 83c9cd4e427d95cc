// GET /api/v1/breaking-news – published breaking news that has not expired, newest first
import { contentRoute, storiesAnswer } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { ZBreakingNewsQuery } from "@/server/publishing/content.schema";
import { listBreakingNews, nextBreakingNewsExpiry } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      query: ZBreakingNewsQuery,
      summary: "Breaking news: published stories marked breaking whose expiry has not passed, newest first: {stories}.",
    },
    async ({ db, ctx, query }) => {
      const [stories, expiry] = await Promise.all([
        listBreakingNews(db, { ctx, ...query }),
        nextBreakingNewsExpiry(db, ctx),
      ]);
      // Kept until the first expiry takes a story off the list (or an event changes it first).
      return { ...storiesAnswer(stories), cacheUntil: expiry ?? undefined };
    },
  ),
});
