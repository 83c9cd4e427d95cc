// GET /api/auth/v1/users/me – bridgekeeper's currentUser: {user, "active-sessions-count", source}
import { privateJson, requireMember } from "@/app/api/member/_lib/member-http";
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { countLiveSessions } from "@/server/publishing/member-sessions";
import { memberToWire } from "@/server/publishing/members";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    { auth: "public", cors: true, summary: '@quintype/bridgekeeper-js currentUser: {user, "active-sessions-count", source}; 401 with an error message when not logged in.' },
    async ({ req }) => {
      const db = await getDb();
      const { member } = await requireMember(db, req);
      const count = await countLiveSessions(db, { memberId: member.id, now: new Date() });
      return privateJson({ user: memberToWire(member), "active-sessions-count": count, source: member.source });
    },
  ),
});
