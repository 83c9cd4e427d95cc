// GET /demo/article – the demo publisher's article page embedding every widget (docs/widgets.md)
import { getEnv } from "@/env.js";
import { apiRoute, routes } from "@/server/http/route";
import { renderDemoArticle } from "@/server/widgets/demo-page";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      produces: "any",
      summary:
        "The demo article page: the demo publisher's widgets (comments, reactions, feed, contributions) loaded with the loader's snippet; 404 without the demo publisher.",
    },
    async ({ db }) => renderDemoArticle(db, { appUrl: getEnv().APP_URL, now: new Date() }),
  ),
});
