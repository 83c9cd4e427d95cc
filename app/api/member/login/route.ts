// POST /api/member/login – log a member in with e-mail (or username) and password
import { logInRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: logInRoute(
    "member",
    "Log in {email, password}: 200 {member}, the session token in the X-QT-AUTH header and the qt-auth and session-cookie cookies; 401 on a wrong e-mail or password; 429 after too many attempts.",
  ),
});
