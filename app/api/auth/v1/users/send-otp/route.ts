// POST /api/auth/v1/users/send-otp – bridgekeeper's sendOtp: a 6-digit code by e-mail
import { sendOtpRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: sendOtpRoute(
    "@quintype/bridgekeeper-js sendOtp {email?}: mails a 6-digit code (10 minutes, single use, 5 tries) to the signed-in member's e-mail, to a new e-mail they give, or (not signed in) to a member's e-mail. 200 {message}, the same whether or not a code was sent; 429 beyond 5 an hour per e-mail or 30 per IP.",
  ),
});
