// GET /api/v1/collections/{slug} – a collection with its page of items (stories and nested collections)
import { CONTENT_ROUTES } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: CONTENT_ROUTES.collection });
