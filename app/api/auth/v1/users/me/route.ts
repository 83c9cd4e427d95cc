// GET /api/auth/v1/users/me – bridgekeeper's currentUser: {user, "active-sessions-count", source}
import { currentMemberRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: currentMemberRoute(
    "user",
    '@quintype/bridgekeeper-js currentUser: {user, "active-sessions-count", source}; 401 with an error message when not logged in.',
  ),
});
