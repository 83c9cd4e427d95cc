// GET /api/access/v1/stories/{story-id}/access – may this reader read this story (the web's isAssetAccessible)
import { accessCheckRoute } from "@/server/http/access-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: accessCheckRoute("web") });
