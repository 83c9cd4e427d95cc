// POST /api/admin/password/reset – the dashboard's reset page: set a new password with a link's token
import { resetAdminPassword } from "@/server/auth/staff-passwords";
import { ZAdminResetPasswordInput } from "@/server/auth/staff.schema";
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZAdminResetPasswordInput,
      rateLimit: { name: "admin.password-reset", limit: 20, windowSeconds: 60, by: "ip" },
      summary:
        "Dashboard users: set a new password {token, password} from a reset or invitation link. 200 {message}; 422 when the token is unknown, expired or used; 400 for a password under 12 characters. Every session of the user ends.",
    },
    async ({ db, body, ip }) => {
      await resetAdminPassword(db, { ...body, ip });
      return privateJson({ message: "Your password is set. Sign in with it." });
    },
  ),
});
