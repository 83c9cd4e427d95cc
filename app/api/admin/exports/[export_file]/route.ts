// GET /api/admin/exports/{kind}.csv – the account's subscribers, subscriptions, payments or invoices as CSV (dashboard, REVENUE or OWNER)
import { csvResponse } from "@/server/csv";
import { apiRoute, routes } from "@/server/http/route";
import { revenueExport } from "@/server/subscriptions/reports/exports";
import { ZExportParams, ZExportQuery } from "@/server/subscriptions/reports/exports.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["REVENUE"],
      params: ZExportParams,
      query: ZExportQuery,
      produces: "any",
      summary:
        "Every one of the account's subscribers (`?who=paying`, the default, or `all` members), subscriptions, payments or invoices as a CSV download (UTF-8, RFC 4180; money as a decimal amount, integer cents and currency; times in UTC), streamed oldest first.",
    },
    async ({ db, admin, params, query }) => {
      const now = new Date();
      const kind = params.export_file;
      const { header, rows } = revenueExport(db, { accountId: admin.accountId, kind, who: query.who, now });
      const day = now.toISOString().slice(0, 10);
      return csvResponse(`${kind}-${day}.csv`, header, rows);
    },
  ),
});
