// POST /api/member – sign up a member (spec §4.4); logged in at once unless "dont-login"
import { signUpRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: signUpRoute(
    "member",
    'Create a member {name, username, email, password}: 201 {member}, with the session token in X-QT-AUTH and cookies unless "dont-login"; 409 when the e-mail or username is taken. newsletters: the slugs of the newsletters the reader ticked (as on the registration wall), each joined with a consent record (PENDING until confirmed by mail); 404 naming the field for one a new reader cannot join, and nothing is created.',
  ),
});
