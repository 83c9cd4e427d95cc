// GET /api/v1/menu-groups – the site's menus keyed by group slug: {"menu-groups": {default: {id, slug, name, items}}}
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildMenuGroups } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      summary: "Menu groups: default (the configured menu, or the sections) and any other stored group.",
    },
    async ({ db, publisher }) => {
      return { body: await buildMenuGroups(db, publisher), tags: ["config"] };
    },
  ),
});
