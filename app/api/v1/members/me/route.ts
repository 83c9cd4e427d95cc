// GET /api/v1/members/me – the logged-in member (X-QT-AUTH header, or the qt-auth / session-cookie cookie)
import { currentMemberRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: currentMemberRoute(
    "member",
    "The logged-in member: {member}; 401 when the token is missing, unknown, expired or revoked.",
  ),
});
