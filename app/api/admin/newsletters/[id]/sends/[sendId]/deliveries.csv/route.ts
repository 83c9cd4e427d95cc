// GET /api/admin/newsletters/{id}/sends/{sendId}/deliveries.csv – one send's mails as CSV (dashboard: editors, revenue)
import { csvResponse, type CsvValue } from "@/server/csv";
import { AppError } from "@/server/errors";
import { apiRoute, routes } from "@/server/http/route";
import { getSendStats, sendDeliveries } from "@/server/newsletters/stats-queries";
import { ZSendIdParams } from "@/server/newsletters/stats.schema";

export const dynamic = "force-dynamic";

const HEADER = [
  "email",
  "status",
  "sent_at_utc",
  "opened_at_utc",
  "clicked_at_utc",
  "clicks",
  "bounced_at_utc",
  "unsubscribed_at_utc",
  "last_error",
] as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR", "REVENUE"],
      params: ZSendIdParams,
      produces: "any",
      summary:
        "One send's mails as a CSV download (UTF-8, RFC 4180; times in UTC): each address with its delivery's status, when it was sent, first opened and first clicked, its clicks, when it bounced or was used to unsubscribe, and the SMTP server's last error. 404 for another account's send or one not of that newsletter.",
    },
    async ({ db, admin, params }) => {
      const { send } = await getSendStats(db, { accountId: admin.accountId, sendId: params.sendId });
      if (send.newsletterId !== params.id) throw new AppError("NOT_FOUND", "No such send.");
      async function* lines(): AsyncGenerator<CsvValue[]> {
        for await (const d of sendDeliveries(db, { accountId: admin.accountId, sendId: send.id }))
          yield [
            d.email,
            d.status.toLowerCase(),
            d.sentAt,
            d.openedAt,
            d.clickedAt,
            d._count.clicks,
            d.bouncedAt,
            d.unsubscribedAt,
            d.lastError,
          ];
      }
      return csvResponse(`newsletter-send-${send.id}-deliveries.csv`, HEADER, lines());
    },
  ),
});
