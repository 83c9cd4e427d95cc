// GET /api/v1/subscription_groups/<group-id>.json – one group of the account, public or private
import { routes } from "@/server/http/route";
import { CATALOGUE } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CATALOGUE.group });
