// POST /api/member/forgot-password – e-mail a password reset link (same answer whether or not the e-mail exists)
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { FORGOT_PASSWORD_MESSAGE } from "@/server/publishing/members";
import { ZForgotPasswordInput } from "@/server/publishing/members.schema";

import { handleForgotPassword, privateJson } from "../_lib/member-http";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZForgotPasswordInput,
      cors: true,
      rateLimit: { name: "member.forgot-password", limit: 20, windowSeconds: 60, by: "ip" },
      summary: "Ask for a password reset link {email}: 200 {message}, the same whether or not a member has this e-mail. The link (valid one hour, single use) goes out by e-mail.",
    },
    async ({ req, body }) => {
      await handleForgotPassword(await getDb(), req, body.email);
      return privateJson({ message: FORGOT_PASSWORD_MESSAGE });
    },
  ),
});
