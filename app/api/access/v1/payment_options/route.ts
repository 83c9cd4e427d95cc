// GET /api/access/v1/payment_options – the account's enabled payment gateways as a reader's browser needs them (client key)
import { CLIENT_API } from "@/server/http/client-api-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CLIENT_API.paymentOptions });
