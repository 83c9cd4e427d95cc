// GET /api/v1/stories-by-slug – one published story by its slug (slugs may contain "/")
import { CONTENT_ROUTES } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CONTENT_ROUTES.storyBySlug });
