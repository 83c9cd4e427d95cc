// GET /api/v1/members/me – the logged-in member (X-QT-AUTH header, or the qt-auth / session-cookie cookie)
import { requireMember, privateJson } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { memberToWire } from "@/server/publishing/members";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", cors: true, summary: "The logged-in member: {member}; 401 when the token is missing, unknown, expired or revoked." },
    async ({ req }) => {
      const { member } = await requireMember(await getDb(), req);
      return privateJson({ member: memberToWire(member) });
    },
  ),
});
