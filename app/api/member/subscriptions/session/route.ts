// POST /api/member/subscriptions/session – a session for the self-service page from the publisher's signed reader JWT
import { jsonWithMemberSession } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_LIMIT } from "@/server/http/self-service-routes";
import { startJwtSelfServiceSession } from "@/server/subscriptions/self-service/self-service";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      rateLimit: { ...SELF_SERVICE_WRITE_LIMIT, by: "ip" },
      summary:
        "No body; `key` (the account's client key) and the reader's publisher-signed JWT (svc_jwt) in the query → {subscriber_id}, with a member session (2 hours) in X-QT-AUTH and the session cookies: the self-service page of a reader the publisher knows by its JWT acts on the same subscriptions as the client API. 401 without a valid key and JWT.",
    },
    async ({ req, db, account, user }) => {
      const now = new Date();
      const { memberId, session } = await startJwtSelfServiceSession(db, { accountId: account.id, user, now });
      return jsonWithMemberSession(req, { subscriber_id: memberId }, session, { now });
    },
  ),
});
