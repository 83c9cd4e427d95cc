// PUT /api/member/subscriptions/{id}/payment-method – replace the payment method the next charges use, through the gateway
import { routes } from "@/server/http/route";
import { SELF_SERVICE_WRITES } from "@/server/http/self-service-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PUT: SELF_SERVICE_WRITES.paymentMethod });
