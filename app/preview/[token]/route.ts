// GET /preview/<token> – a story's current draft as a plain article, for whoever holds the private, expiring link
import { previewRoute } from "@/server/http/preview-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: previewRoute("article") });
