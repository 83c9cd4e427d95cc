// POST /api/auth/v1/users/forgot-password – bridgekeeper's forgotPassword: as POST /api/member/forgot-password
import { forgotPasswordRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: forgotPasswordRoute(
    "@quintype/bridgekeeper-js forgotPassword {email}: 200 {message}, the same whether or not the e-mail exists.",
  ),
});
