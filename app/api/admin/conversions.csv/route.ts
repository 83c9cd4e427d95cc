// GET /api/admin/conversions.csv – which stories convert, per story, section, author or tag, as CSV (dashboard, REVENUE or OWNER)
import { csvResponse, type CsvValue } from "@/server/csv";
import { apiRoute, routes } from "@/server/http/route";
import { conversionCsv } from "@/server/subscriptions/reports/conversion-csv";
import { storyConversions } from "@/server/subscriptions/reports/conversion-load";
import { ZConversionsInput } from "@/server/subscriptions/reports/conversions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["REVENUE"],
      query: ZConversionsInput,
      produces: "any",
      summary:
        "The Conversions page as a CSV download (UTF-8, RFC 4180): `from` and `to` (days YYYY-MM-DD of the account's time zone, both included, at most 366 days; 400 otherwise) and `by` (story, the default, section, author or tag). One line per group: readers who hit the wall, conversions attributed to it (registered, trials, paid, of them in the same visit) and the revenue of the attributed subscriptions' first 30 days, one column of integer cents per currency. Figures only: no reader is named.",
    },
    async ({ db, admin, query }) => {
      const figures = await storyConversions(db, { accountId: admin.accountId, input: query });
      const { header, rows } = conversionCsv(figures);
      async function* lines(): AsyncGenerator<CsvValue[]> {
        yield* rows;
      }
      return csvResponse(`conversions-${figures.by}-${figures.from}-${figures.to}.csv`, header, lines());
    },
  ),
});
