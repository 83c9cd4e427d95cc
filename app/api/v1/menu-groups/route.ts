// GET /api/v1/menu-groups – the site's menus keyed by group slug: {"menu-groups": {default: {id, slug, name, items}}}
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildMenuGroups } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      summary: "Menu groups: default (the configured menu, or the sections) and any other stored group.",
    },
    async ({ req, db, publisher }) => {
      return contentResponse(req, await buildMenuGroups(db, publisher), { tags: ["config"] });
    },
  ),
});
