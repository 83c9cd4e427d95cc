// GET /api/v1/stories – published stories, filtered by section, tag or template, newest first
import { CONTENT_ROUTES } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CONTENT_ROUTES.stories });
