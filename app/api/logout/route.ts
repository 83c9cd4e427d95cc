// GET /api/logout – end the member's session and clear its cookies (204)
import { logoutResponse } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const logout = apiRoute(
  { auth: "public", cors: true, summary: "End the session the request carries (X-QT-AUTH or cookie) and clear the cookies: 204, also when there was none." },
  async ({ req }) => logoutResponse(await getDb(), req),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: logout, POST: logout });
