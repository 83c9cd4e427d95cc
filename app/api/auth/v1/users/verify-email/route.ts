// GET /api/auth/v1/users/verify-email – the link of send-verification-link
import { verifyEmailRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: verifyEmailRoute(
    "The link mailed by send-verification-link: marks the member's e-mail verified, then 303 to the redirect-url given (only when it is on the publication's hosts), else 200 {message}. 422 for an invalid, expired or used link.",
  ),
});
