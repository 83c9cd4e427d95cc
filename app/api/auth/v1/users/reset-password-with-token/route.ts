// POST /api/auth/v1/users/reset-password-with-token – bridgekeeper's resetPasswordWithToken {token, "new-password", "confirm-password"}
import { resetPasswordResponse } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZBridgekeeperResetInput } from "@/server/publishing/members.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZBridgekeeperResetInput,
      cors: true,
      rateLimit: { name: "member.password-reset", limit: 30, windowSeconds: 60, by: "ip" },
      summary: '@quintype/bridgekeeper-js resetPasswordWithToken {token, "new-password", "confirm-password"}: 200 {message}; 400 when the two differ, 422 for an unknown, expired or used token.',
    },
    async ({ req, body }) => resetPasswordResponse(await getDb(), req, body.token, body["new-password"]),
  ),
});
