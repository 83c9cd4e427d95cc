// POST /api/admin/password/forgot – "Forgot password?" of the dashboard: e-mail a reset link (same answer for every e-mail)
import { getEnv } from "@/env.js";
import { requestAdminPasswordReset } from "@/server/auth/staff-passwords";
import { ADMIN_FORGOT_PASSWORD_MESSAGE, ZAdminForgotPasswordInput } from "@/server/auth/staff.schema";
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZAdminForgotPasswordInput,
      rateLimit: { name: "admin.forgot-password", limit: 10, windowSeconds: 60, by: "ip" },
      summary:
        "Dashboard users: ask for a password reset link {email}. 200 {message}, the same whether or not the e-mail is a user's; 429 past 10 a minute per IP or 5 an hour per e-mail.",
    },
    async ({ db, body }) => {
      await requestAdminPasswordReset(db, { email: body.email, appUrl: getEnv().APP_URL });
      return privateJson({ message: ADMIN_FORGOT_PASSWORD_MESSAGE });
    },
  ),
});
