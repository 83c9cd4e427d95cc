// GET|POST|DELETE /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}/members – the members of a
// group_access subscription (server API)
import { routes } from "@/server/http/route";
import { SUBSCRIBER_ROUTES } from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: SUBSCRIBER_ROUTES.members.list,
  POST: SUBSCRIBER_ROUTES.members.add,
  DELETE: SUBSCRIBER_ROUTES.members.remove,
});
