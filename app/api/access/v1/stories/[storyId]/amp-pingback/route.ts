// POST /api/access/v1/stories/{story-id}/amp-pingback – AMP's pingback: counts a metered read
import { pingbackRoute } from "@/server/http/access-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: pingbackRoute("amp") });
