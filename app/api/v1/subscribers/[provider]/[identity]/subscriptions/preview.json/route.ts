// POST /api/v1/subscribers/{provider}/{identity}/subscriptions/preview.json – preview a subscription (server API)
import { serverCheckoutRoute } from "@/server/http/checkout-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: serverCheckoutRoute("preview") });
