// PUT /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}/cancel.json – cancel at period end (server API)
import { apiRoute, routes } from "@/server/http/route";
import { serverCancelHandler, serverCancelOptions } from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(serverCancelOptions(false), serverCancelHandler(false)),
});
