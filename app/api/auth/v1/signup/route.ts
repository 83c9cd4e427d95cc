// POST /api/auth/v1/signup – bridgekeeper's register: as POST /api/member, answering {user}
import { signupResponse } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { ZMemberSignupInput } from "@/server/publishing/members.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZMemberSignupInput,
      cors: true,
      rateLimit: { name: "member.signup", limit: 30, windowSeconds: 60, by: "ip" },
      summary: "@quintype/bridgekeeper-js register {name, email, username, password, dont-login}: as POST /api/member, answering {user}.",
    },
    async ({ req, body }) => signupResponse(await getDb(), req, body, "user"),
  ),
});
