// GET /api/v1/amp/config – AMP rendering settings (fonts, colours, logo, menu), stored values over defaults
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { buildAmpConfig } from "@/server/publishing/config-view";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      summary: "AMP configuration: fonts, colours, logo, menu, related collection, invalid-elements strategy.",
    },
    async ({ db, publisher }) => {
      return { body: await buildAmpConfig(db, publisher), tags: ["config", "amp-config"] };
    },
  ),
});
