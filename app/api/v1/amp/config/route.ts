// GET /api/v1/amp/config – AMP rendering settings (fonts, colours, logo, menu), stored values over defaults
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildAmpConfig } from "@/server/publishing/config-view";
import { getPublisher, resolvePublisherAccountId } from "@/server/publishing/publisher";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", summary: "AMP configuration: fonts, colours, logo, menu, related collection, invalid-elements strategy." }, async ({ req }) => {
    const db = await getDb();
    const env = getEnv();
    const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
    const publisher = await getPublisher(db, accountId, { appUrl: env.APP_URL });
    return contentResponse(req, await buildAmpConfig(db, publisher), { tags: ["config", "amp-config"] });
  }),
});
