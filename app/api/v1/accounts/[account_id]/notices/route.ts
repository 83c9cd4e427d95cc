// GET /api/v1/accounts/{account_id}/notices?jwt= – the reader's moderators' notices still to show (warnings, bans, suspensions)
import { listReaderNotices } from "@/server/engagement/community/notices";
import { ZNoticesParams, ZNoticesQuery } from "@/server/engagement/community/notices.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZNoticesParams,
      query: ZNoticesQuery,
      cors: true,
      rateLimit: { name: "engagement.notices", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's notices from the moderators that they have not acknowledged, oldest first (401 without a jwt): {notices: [{id, kind: warning|ban|suspension, message, created_at, until, acknowledged_at}]}. A ban's or suspension's notice only while it is in force; until is a suspension's end (ISO 8601, UTC), null otherwise. A reader never seen: no notices.",
    },
    async ({ db, account, user }) =>
      json(await listReaderNotices(db, { accountId: account.id, user, now: new Date() }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
