// POST /api/auth/v1/users/reset-password-with-token – bridgekeeper's resetPasswordWithToken {token, "new-password", "confirm-password"}
import { resetPasswordRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: resetPasswordRoute(
    "bridgekeeper",
    '@quintype/bridgekeeper-js resetPasswordWithToken {token, "new-password", "confirm-password"}: 200 {message}; 400 when the two differ, 422 for an unknown, expired or used token.',
  ),
});
