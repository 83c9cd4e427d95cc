// GET /api/admin/newsletters/{id}/sends.csv – a newsletter's sends with their numbers as CSV (dashboard: editors, revenue)
import { csvResponse, type CsvValue } from "@/server/csv";
import { apiRoute, routes } from "@/server/http/route";
import { newsletterSendsForCsv } from "@/server/newsletters/stats-queries";
import { ZNewsletterIdParams, ZOptionalStatsRange } from "@/server/newsletters/stats.schema";

export const dynamic = "force-dynamic";

const HEADER = [
  "send_id",
  "subject",
  "kind",
  "status",
  "sent_at_utc",
  "recipients",
  "delivered",
  "bounced",
  "failed",
  "pending",
  "opened",
  "clicked",
  "unsubscribed",
  "open_rate",
  "click_rate",
  "subscriptions_started",
] as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR", "REVENUE"],
      params: ZNewsletterIdParams,
      query: ZOptionalStatsRange,
      produces: "any",
      summary:
        "A newsletter's sends as a CSV download (UTF-8, RFC 4180; times in UTC), newest first: recipients, delivered, bounced, failed, pending, unique opens and clicks, unsubscribes, open and click rates (0 to 1, over delivered) and paid subscriptions started within 7 days of a click. `from` and `to` (days, YYYY-MM-DD, in the account's time zone, together) keep the sends of that range; without them, all. 404 for another account's newsletter.",
    },
    async ({ db, admin, params, query }) => {
      const range = query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : undefined;
      const { newsletter, rows } = await newsletterSendsForCsv(db, {
        accountId: admin.accountId,
        newsletterId: params.id,
        range,
      });
      async function* lines(): AsyncGenerator<CsvValue[]> {
        for await (const s of rows)
          yield [
            s.id,
            s.subject,
            s.kind,
            s.status.toLowerCase(),
            s.startedAt ?? s.scheduledAt,
            s.recipients,
            s.delivered,
            s.bounced,
            s.failed,
            s.pending,
            s.opened,
            s.clicked,
            s.unsubscribed,
            s.openRate === null ? null : Number(s.openRate.toFixed(4)),
            s.clickRate === null ? null : Number(s.clickRate.toFixed(4)),
            s.subscriptionsStarted,
          ];
      }
      return csvResponse(`newsletter-${newsletter.slug}-sends.csv`, HEADER, lines());
    },
  ),
});
