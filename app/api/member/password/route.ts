// POST /api/member/password – the same as /api/member/password/reset (the path quintype-ruby posts to)
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZResetPasswordInput } from "@/server/publishing/members.schema";

import { resetPasswordResponse } from "../_lib/member-http";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZResetPasswordInput,
      cors: true,
      rateLimit: { name: "member.password-reset", limit: 30, windowSeconds: 60, by: "ip" },
      summary: "Alias of POST /api/member/password/reset {token, password}.",
    },
    async ({ req, body }) => resetPasswordResponse(await getDb(), req, body.token, body.password),
  ),
});
