// POST /api/auth/v1/login – bridgekeeper's login: {email or username, password} → {user} and a session
import { logInRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: logInRoute("user", "@quintype/bridgekeeper-js login: as POST /api/member/login, answering {user}."),
});
