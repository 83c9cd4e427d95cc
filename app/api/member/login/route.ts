// POST /api/member/login – log a member in with e-mail (or username) and password
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZMemberLoginInput } from "@/server/publishing/members.schema";

import { loginResponse } from "../_lib/member-http";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZMemberLoginInput,
      cors: true,
      rateLimit: { name: "member.login", limit: 60, windowSeconds: 60, by: "ip" },
      summary: "Log in {email, password}: 200 {member}, the session token in the X-QT-AUTH header and the qt-auth and session-cookie cookies; 401 on a wrong e-mail or password; 429 after too many attempts.",
    },
    async ({ req, ip, body }) => loginResponse(await getDb(), req, ip, body, "member"),
  ),
});
