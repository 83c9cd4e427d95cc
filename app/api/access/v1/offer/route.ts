// GET /api/access/v1/offer – the paywall offer for this reader (and its A/B test arm, recorded once)
import { CLIENT_API } from "@/server/http/client-api-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CLIENT_API.offer });
