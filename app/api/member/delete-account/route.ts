// POST /api/member/delete-account – the signed-in reader asks to delete their account: a confirmation link is mailed to them
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { askErasure } from "@/server/privacy/erasure/reader-request";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "member",
      rateLimit: { name: "member.delete-account", limit: 10, windowSeconds: 3600, by: "ip" },
      summary:
        "No body. Mails the signed-in member a link (valid 24 hours, single use) to /member/delete-account/confirm, where they confirm the deletion of their account (a reader signed in by the publisher's JWT: at the address the JWT claimed) → {sent: true, expires_at}. 401 without a member session; 422 when no address is known; 429 after 5 asks in an hour.",
    },
    async ({ db, publisher, member }) =>
      privateJson(await askErasure(db, { publisher, memberId: member.member.id, now: new Date() })),
  ),
});
