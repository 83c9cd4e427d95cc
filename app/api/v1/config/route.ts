// GET /api/v1/config – the publisher configuration front ends load first (fields: docs/publishing.md)
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildPublisherConfig } from "@/server/publishing/config-view";
import { getPublisher, resolvePublisherAccountId } from "@/server/publishing/publisher";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", summary: "The publisher configuration: sections, menu, domains, settings, SEO, theme, language." }, async ({ req }) => {
    const db = await getDb();
    const env = getEnv();
    const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
    const publisher = await getPublisher(db, accountId, { appUrl: env.APP_URL });
    const config = await buildPublisherConfig(db, publisher, { nodeEnv: env.NODE_ENV, appUrl: env.APP_URL });
    return contentResponse(req, config, { tags: ["config"] });
  }),
});
