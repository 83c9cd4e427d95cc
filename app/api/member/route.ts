// POST /api/member – sign up a member (spec §4.4); logged in at once unless "dont-login"
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZMemberSignupInput } from "@/server/publishing/members.schema";

import { signupResponse } from "./_lib/member-http";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZMemberSignupInput,
      cors: true,
      rateLimit: { name: "member.signup", limit: 30, windowSeconds: 60, by: "ip" },
      summary: "Create a member {name, username, email, password}: 201 {member}, with the session token in X-QT-AUTH and cookies unless \"dont-login\"; 409 when the e-mail or username is taken.",
    },
    async ({ req, body }) => signupResponse(await getDb(), req, body, "member"),
  ),
});
