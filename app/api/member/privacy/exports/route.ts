// GET, POST /api/member/privacy/exports – the signed-in reader's data export: its state, or ask for one
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { ZRequestMemberExportBody } from "@/server/privacy/exports/exports.schema";
import { latestMemberExport, requestMemberExport } from "@/server/privacy/exports/requests";

export const dynamic = "force-dynamic";

/** A few requests an hour: each one reads everything the reader has and mails them. */
const EXPORT_REQUEST_LIMIT = { name: "privacy.export.request", limit: 5, windowSeconds: 3600, by: "reader" } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "The signed-in reader's latest own data export → {export: {id, status (pending|ready|expired), requested_at, ready_at, expires_at} | null}. 401 without a member session.",
    },
    async ({ db, publisher, member }) =>
      privateJson({
        export: await latestMemberExport(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          now: new Date(),
        }),
      }),
  ),
  POST: apiRoute(
    {
      auth: "member",
      body: ZRequestMemberExportBody,
      rateLimit: EXPORT_REQUEST_LIMIT,
      maxBodyBytes: 1_024,
      summary:
        "{locale?} → 202 {export, created}: the signed-in reader asks for everything the publication holds about them. Built in the background and mailed as a link that works for 7 days (docs/privacy.md). While one request is pending, asking again answers it (created: false). 401 without a member session.",
    },
    async ({ db, publisher, member, body }) => {
      const result = await requestMemberExport(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        locale: body.locale,
        now: new Date(),
      });
      return privateJson(result, 202);
    },
  ),
});
