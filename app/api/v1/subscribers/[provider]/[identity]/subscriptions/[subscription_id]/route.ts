// PATCH|DELETE /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}.json – one subscription (server API)
import { apiRoute, routes } from "@/server/http/route";
import {
  serverCancelHandler,
  serverCancelOptions,
  SUBSCRIBER_ROUTES,
} from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PATCH: SUBSCRIBER_ROUTES.updateMetadata,
  DELETE: apiRoute(serverCancelOptions(true), serverCancelHandler(true)),
});
