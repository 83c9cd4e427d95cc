// GET|POST|PATCH /api/v1/subscribers/{provider}/{identity}/subscriptions.json – a subscriber's subscriptions:
// list, create from a preview (checkout), metadata of all active ones (server API)
import { serverCheckoutRoute } from "@/server/http/checkout-routes";
import { routes } from "@/server/http/route";
import { SUBSCRIBER_ROUTES } from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: SUBSCRIBER_ROUTES.list,
  POST: serverCheckoutRoute("create"),
  PATCH: SUBSCRIBER_ROUTES.updateActiveMetadata,
});
