// POST /api/auth/v1/users/forgot-password – bridgekeeper's forgotPassword: as POST /api/member/forgot-password
import { handleForgotPassword, privateJson } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { FORGOT_PASSWORD_MESSAGE } from "@/server/publishing/members";
import { ZForgotPasswordInput } from "@/server/publishing/members.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZForgotPasswordInput,
      cors: true,
      rateLimit: { name: "member.forgot-password", limit: 20, windowSeconds: 60, by: "ip" },
      summary: "@quintype/bridgekeeper-js forgotPassword {email}: 200 {message}, the same whether or not the e-mail exists.",
    },
    async ({ req, body }) => {
      await handleForgotPassword(await getDb(), req, body.email);
      return privateJson({ message: FORGOT_PASSWORD_MESSAGE });
    },
  ),
});
