// POST /api/auth/v1/signup – bridgekeeper's register: as POST /api/member, answering {user}
import { signUpRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: signUpRoute(
    "user",
    "@quintype/bridgekeeper-js register {name, email, username, password, dont-login}, and newsletters (the slugs the reader ticked, as on the registration wall): as POST /api/member, answering {user}.",
  ),
});
