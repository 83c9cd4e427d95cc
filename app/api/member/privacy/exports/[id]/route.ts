// GET /api/member/privacy/exports/{id}?token= – the signed-in reader downloads their data export (the mailed link)
import { AppError } from "@/server/errors";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { exportStorage } from "@/server/privacy/exports/build";
import { exportFileResponse, openMemberExport } from "@/server/privacy/exports/download";
import { ZExportIdParams, ZExportTokenQuery } from "@/server/privacy/exports/exports.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member?",
      params: ZExportIdParams,
      query: ZExportTokenQuery,
      produces: "any",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "The archive (application/zip: data.json and index.html) of a data export, for the reader it was mailed to: signed in as that reader and with the link's token. A browser that is not signed in is sent to the sign-in page and back; otherwise 401. A wrong token or another account's export is 404; another reader's export is 403; an expired one is 410.",
    },
    async ({ db, publisher, member, params, query, url, req }) => {
      if (!member) return signInFirst(req, url);
      const file = await openMemberExport(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        exportId: params.id,
        token: query.token,
        now: new Date(),
        storage: exportStorage(),
      });
      return exportFileResponse(file);
    },
  ),
});

/** Not signed in: a browser goes to the member sign-in page, which comes back to this link; others get 401. */
function signInFirst(req: Request, url: URL): Response {
  if (!(req.headers.get("accept") ?? "").includes("text/html"))
    throw new AppError("UNAUTHORIZED", "Sign in as the reader this download was sent to.");
  const returnTo = `${url.pathname}${url.search}`;
  return new Response(null, {
    status: 303,
    headers: { Location: `/member/login?return_to=${encodeURIComponent(returnTo)}`, "Cache-Control": "no-store" },
  });
}
