// GET /quintype-metype/assets/metype.js – the widget loader at the path of Metype's queue-stub snippet
import { routes } from "@/server/http/route";
import { widgetAssetRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: widgetAssetRoute(
    "loader",
    "The widget loader at Metype's second path (the same script as /widgets/v1/loader.js).",
  ),
});
