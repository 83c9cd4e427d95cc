// POST /api/member/password/reset – set a new password with the token of a reset link
import { resetPasswordRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: resetPasswordRoute(
    "content",
    "Set a new password {token, password}: 200 {message}; 422 when the token is unknown, expired or used. Ends the member's other sessions.",
  ),
});
