// GET /api/v1/config – the publisher configuration front ends load first (fields: docs/publishing.md)
import { getEnv } from "@/env.js";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildPublisherConfig } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      summary: "The publisher configuration: sections, menu, domains, settings, SEO, theme, language.",
    },
    async ({ req, db, publisher }) => {
      const env = getEnv();
      const config = await buildPublisherConfig(db, publisher, { nodeEnv: env.NODE_ENV, appUrl: env.APP_URL });
      return contentResponse(req, config, { tags: ["config"] });
    },
  ),
});
