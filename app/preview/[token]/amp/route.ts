// GET /preview/<token>/amp – a story's current draft as its AMP page, for whoever holds the private, expiring link
import { previewRoute } from "@/server/http/preview-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: previewRoute("amp") });
