// GET /api/v1/menu-groups – the site's menus keyed by group slug: {"menu-groups": {default: {id, slug, name, items}}}
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildMenuGroups } from "@/server/publishing/config-view";
import { getPublisher, resolvePublisherAccountId } from "@/server/publishing/publisher";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", summary: "Menu groups: default (the configured menu, or the sections) and any other stored group." }, async ({ req }) => {
    const db = await getDb();
    const env = getEnv();
    const accountId = await resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: env.PUBLISHING_ACCOUNT });
    const publisher = await getPublisher(db, accountId, { appUrl: env.APP_URL });
    return contentResponse(req, await buildMenuGroups(db, publisher), { tags: ["config"] });
  }),
});
