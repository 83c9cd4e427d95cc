// GET /api/logout – end the member's session and clear its cookies (204)
import { logOutRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const logout = logOutRoute(
  "End the session the request carries (X-QT-AUTH or cookie) and clear the cookies: 204, also when there was none.",
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: logout, POST: logout });
