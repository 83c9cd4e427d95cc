// GET /quintype-metype/assets/application.js – the widget loader at the path pages written for Metype load
import { routes } from "@/server/http/route";
import { widgetAssetRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: widgetAssetRoute("loader", "The widget loader at Metype's path (the same script as /widgets/v1/loader.js)."),
});
