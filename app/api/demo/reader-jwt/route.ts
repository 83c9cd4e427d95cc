// POST /api/demo/reader-jwt?key= – TEST TOOL: a reader JWT for a typed-in e-mail, demo account only, only with DEMO_TOOLS (404 otherwise)
import { CLIENT_API } from "@/server/http/client-api-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: CLIENT_API.demoReaderJwt });
