// GET /api/auth/v1/logout – bridgekeeper's logout: as GET /api/logout (204)
import { logoutResponse } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const logout = apiRoute(
  { auth: "public", cors: true, summary: "@quintype/bridgekeeper-js logout: ends the session, clears the cookies, 204." },
  async ({ req }) => logoutResponse(await getDb(), req),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: logout, POST: logout });
