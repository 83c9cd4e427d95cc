// GET /api/v1/subscription_groups.json – the account's public subscription groups with their live plans
import { routes } from "@/server/http/route";
import { CATALOGUE } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CATALOGUE.groups });
