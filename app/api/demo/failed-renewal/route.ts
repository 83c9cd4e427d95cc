// POST /api/demo/failed-renewal?key=&accesstype_jwt= – TEST TOOL: the demo reader's renewing demo_test subscription fails its renewal now (grace period), a Stripe one ends its period (Stripe's word awaited), demo account only, only with DEMO_TOOLS (404 otherwise)
import { CLIENT_API } from "@/server/http/client-api-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: CLIENT_API.demoFailedRenewal });
