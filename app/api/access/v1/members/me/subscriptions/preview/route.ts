// POST /api/access/v1/members/me/subscriptions/preview – preview a subscription for the JWT's reader (client API)
import { clientCheckoutRoute } from "@/server/http/checkout-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: clientCheckoutRoute("preview") });
