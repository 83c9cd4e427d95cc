// GET /api/v1/config – the publisher configuration front ends load first (fields: docs/publishing.md)
import { getEnv } from "@/env.js";
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildPublisherConfig } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      summary: "The publisher configuration: sections, menu, domains, settings, SEO, theme, language.",
    },
    async ({ db, publisher }) => {
      const env = getEnv();
      const config = await buildPublisherConfig(db, publisher, { nodeEnv: env.NODE_ENV, appUrl: env.APP_URL });
      return { body: config, tags: ["config"] };
    },
  ),
});
