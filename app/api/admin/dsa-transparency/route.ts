// GET /api/admin/dsa-transparency?from=&to=&format=csv|json – the DSA transparency report as a download (dashboard, MODERATOR)
import { z } from "zod";

import { csvResponse, type CsvValue } from "@/server/csv";
import { ZDsaReportInput } from "@/server/engagement/dsa/dsa.schema";
import { DSA_REPORT_CSV_HEADER, dsaReportRows, dsaTransparencyReport } from "@/server/engagement/dsa/transparency";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const ZQuery = z.intersection(ZDsaReportInput, z.object({ format: z.enum(["csv", "json"]).default("csv") }));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["MODERATOR"],
      query: ZQuery,
      produces: "any",
      summary:
        "The account's DSA transparency report for `from` to `to` (days, YYYY-MM-DD, both included, in the account's time zone) as a download: `format=csv` (section, key, value; UTF-8, RFC 4180) or `format=json`. Notices received in the period by category, decided ones by decision and ground, median and 90th percentile of hours to decide, decisions that used automated means, appeals submitted in the period and their outcomes. Audited.",
    },
    async ({ db, admin, query }) => {
      const { format, ...period } = query;
      const report = await dsaTransparencyReport(db, { actor: admin, input: period, format, now: new Date() });
      const name = `dsa-transparency-${report.from}-${report.to}`;
      if (format === "json") {
        return json(report, {
          headers: { "Content-Disposition": `attachment; filename="${name}.json"`, "Cache-Control": "no-store" },
        });
      }
      async function* rows(): AsyncGenerator<CsvValue[]> {
        yield* dsaReportRows(report);
      }
      return csvResponse(`${name}.csv`, DSA_REPORT_CSV_HEADER, rows());
    },
  ),
});
