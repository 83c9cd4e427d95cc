// GET /widgets/v1/loader.js – the widget loader (talktype), docs/widgets.md
import { routes } from "@/server/http/route";
import { widgetAssetRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: widgetAssetRoute(
    "loader",
    "The widget loader script: defines window.talktype (commentWidgetIframe, feedWidgetIframe, contributionWidgetIframe, pageReactionsIframe, accountUserLogin…) and drains the talktype.q queue of the page's stub.",
  ),
});
