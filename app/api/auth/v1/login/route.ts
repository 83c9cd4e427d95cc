// POST /api/auth/v1/login – bridgekeeper's login: {email or username, password} → {user} and a session
import { loginResponse } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZMemberLoginInput } from "@/server/publishing/members.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZMemberLoginInput,
      cors: true,
      rateLimit: { name: "member.login", limit: 60, windowSeconds: 60, by: "ip" },
      summary: "@quintype/bridgekeeper-js login: as POST /api/member/login, answering {user}.",
    },
    async ({ req, ip, body }) => loginResponse(await getDb(), req, ip, body, "user"),
  ),
});
