// POST /api/access/v1/subscription-without-login – guest checkout create (client key only)
import { guestCheckoutRoute } from "@/server/http/checkout-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: guestCheckoutRoute("create") });
