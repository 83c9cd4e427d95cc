// POST /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}/renewals.json – renew a subscription (server API)
import { routes } from "@/server/http/route";
import { SUBSCRIBER_ROUTES } from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: SUBSCRIBER_ROUTES.renew });
