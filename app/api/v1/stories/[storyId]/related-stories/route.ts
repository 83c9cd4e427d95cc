// GET /api/v1/stories/{story-id}/related-stories – published stories sharing a section or tag
import { CONTENT_ROUTES } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CONTENT_ROUTES.relatedStories });
