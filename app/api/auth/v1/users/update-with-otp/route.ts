// POST /api/auth/v1/users/update-with-otp – bridgekeeper's updateWithOtp {otp, user}
import { updateWithOtpRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: updateWithOtpRoute(
    '@quintype/bridgekeeper-js updateWithOtp {otp, user: {email?, "phone-number"?, name?}}: with the code sent to the new e-mail (when it changes; it is then verified) or to the member\'s own. 200 {user}; 422 for a wrong, expired or used code; 409 when another member has the e-mail.',
  ),
});
