// GET /api/admin/audit-log.csv – the account's audit log as CSV, with the dashboard's filters (dashboard, OWNER)
import { allAuditEntries } from "@/server/audit/audit-log";
import { ZAuditLogFilter } from "@/server/audit/audit-log.schema";
import { csvResponse, type CsvValue } from "@/server/csv";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const HEADER = ["time_utc", "action", "by_name", "by_email", "target_type", "target_id", "ip", "details"] as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["OWNER"],
      query: ZAuditLogFilter,
      produces: "any",
      summary:
        "The account's audit log as a CSV download (UTF-8, RFC 4180; times in UTC; details as JSON), newest first, with the dashboard's filters: `action`, `actor` (a user id or `system`), `from` and `to` (days, YYYY-MM-DD, in the account's time zone).",
    },
    async ({ db, admin, query }) => {
      const entries = allAuditEntries(db, { accountId: admin.accountId, filter: query });
      async function* rows(): AsyncGenerator<CsvValue[]> {
        for await (const e of entries)
          yield [
            e.createdAt,
            e.action,
            e.actor?.name ?? "System",
            e.actor?.email,
            e.targetType,
            e.targetId,
            e.ip,
            Object.keys(e.metadata).length ? JSON.stringify(e.metadata) : "",
          ];
      }
      return csvResponse(`audit-log-${new Date().toISOString().slice(0, 10)}.csv`, HEADER, rows());
    },
  ),
});
