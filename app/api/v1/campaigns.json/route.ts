// GET /api/v1/campaigns.json – the account's public campaign groups
import { routes } from "@/server/http/route";
import { CATALOGUE } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CATALOGUE.campaigns });
