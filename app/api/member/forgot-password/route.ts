// POST /api/member/forgot-password – e-mail a password reset link (same answer whether or not the e-mail exists)
import { forgotPasswordRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: forgotPasswordRoute(
    'Ask for a password reset link {email, page?}: 200 {message}, the same whether or not a member has this e-mail. The link (valid one hour, single use) goes out by e-mail: <site URL>/reset-password?token=, or with page "hosted" Masthead\'s own /member/reset-password page.',
  ),
});
