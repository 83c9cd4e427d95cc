// GET /widgets/v1/frame.js – the widget frames' script (and the captcha worker)
import { routes } from "@/server/http/route";
import { widgetAssetRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: widgetAssetRoute("frame.js", "The script of the widget frames; with ?v=<its hash> it is cached for good."),
});
