// GET /api/v1/subscribers/{provider}/{identity}/subscription_gifts.json – the subscriptions a subscriber gave (server API)
import { routes } from "@/server/http/route";
import { SUBSCRIBER_ROUTES } from "@/server/http/subscriber-subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: SUBSCRIBER_ROUTES.gifts });
