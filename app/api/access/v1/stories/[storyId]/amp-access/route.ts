// GET /api/access/v1/stories/{story-id}/amp-access – AMP's authorization: the access grant object
import { accessCheckRoute } from "@/server/http/access-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: accessCheckRoute("amp") });
