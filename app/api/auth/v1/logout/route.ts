// GET /api/auth/v1/logout – bridgekeeper's logout: as GET /api/logout (204)
import { logOutRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const logout = logOutRoute("@quintype/bridgekeeper-js logout: ends the session, clears the cookies, 204.");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: logout, POST: logout });
