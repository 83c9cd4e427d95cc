// POST /api/auth/v1/users/reset-password – bridgekeeper's resetPassword {email, otp, "new-password"}
import { resetPasswordWithOtpRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: resetPasswordWithOtpRoute(
    '@quintype/bridgekeeper-js resetPassword {email, otp, "new-password"} with a code from send-otp: 200 {message}; every other session of the member ends. 422 for a wrong, expired or used code (or an unknown e-mail: the same answer).',
  ),
});
