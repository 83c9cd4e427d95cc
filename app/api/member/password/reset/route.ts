// POST /api/member/password/reset – set a new password with the token of a reset link
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZResetPasswordInput } from "@/server/publishing/members.schema";

import { resetPasswordResponse } from "../../_lib/member-http";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZResetPasswordInput,
      cors: true,
      rateLimit: { name: "member.password-reset", limit: 30, windowSeconds: 60, by: "ip" },
      summary: "Set a new password {token, password}: 200 {message}; 422 when the token is unknown, expired or used. Ends the member's other sessions.",
    },
    async ({ req, body }) => resetPasswordResponse(await getDb(), req, body.token, body.password),
  ),
});
