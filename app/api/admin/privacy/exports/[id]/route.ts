// GET /api/admin/privacy/exports/{id} – a reader's data export, for the staff user who asked for it (dashboard, REVENUE or OWNER)
import { apiRoute, routes } from "@/server/http/route";
import { exportStorage } from "@/server/privacy/exports/build";
import { exportFileResponse, openStaffExport } from "@/server/privacy/exports/download";
import { ZExportIdParams } from "@/server/privacy/exports/exports.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["REVENUE"],
      params: ZExportIdParams,
      produces: "any",
      summary:
        "The archive (application/zip) of a subject access request, for the staff user who asked for it; each download is audited (privacy.export.download). Another staff user's export is 403, another account's 404, an expired one 410.",
    },
    async ({ db, admin, params, ip }) =>
      exportFileResponse(
        await openStaffExport(db, { actor: admin, exportId: params.id, now: new Date(), storage: exportStorage(), ip }),
      ),
  ),
});
