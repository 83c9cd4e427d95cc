// POST /api/access/v1/coupons/validate – does a coupon apply to a plan, and the price with it (client key)
import { CLIENT_API } from "@/server/http/client-api-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: CLIENT_API.validateCoupon });
