// GET /api/v1/amp/config – AMP rendering settings (fonts, colours, logo, menu), stored values over defaults
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { buildAmpConfig } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      summary: "AMP configuration: fonts, colours, logo, menu, related collection, invalid-elements strategy.",
    },
    async ({ req, db, publisher }) => {
      return contentResponse(req, await buildAmpConfig(db, publisher), { tags: ["config", "amp-config"] });
    },
  ),
});
