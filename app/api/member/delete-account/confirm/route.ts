// POST /api/member/delete-account/confirm – the reader confirms the deletion of their account with the mailed token; the erasure starts and they are signed out
import { clearedSessionCookies, isSecureRequest, privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { ZConfirmErasureBody } from "@/server/privacy/erasure/erasure.schema";
import { confirmErasure } from "@/server/privacy/erasure/reader-request";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "member?",
      body: ZConfirmErasureBody,
      rateLimit: { name: "member.delete-account.confirm", limit: 20, windowSeconds: 3600, by: "ip" },
      summary:
        "{token} from the mailed link → {id, state, steps_done, last_error}: the account's erasure has started (the 'privacy.erase' job runs it), every session of the member ends and the session cookies are cleared. 422 for an invalid, expired or used token; 403 when another reader is signed in on this browser.",
    },
    async ({ db, req, publisher, member, body }) => {
      const view = await confirmErasure(db, {
        publisher,
        token: body.token,
        sessionMemberId: member?.member.id ?? null,
        now: new Date(),
      });
      const response = privateJson(view);
      for (const cookie of clearedSessionCookies({ secure: isSecureRequest(req) }))
        response.headers.append("Set-Cookie", cookie);
      return response;
    },
  ),
});
