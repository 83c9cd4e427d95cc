// POST /api/v1/newsletters/bounces – the mail provider's bounce and complaint reports (server API)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { recordBounceReports } from "@/server/newsletters/bounces";
import { ZBounceReportInput } from "@/server/newsletters/subscriptions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "server",
      body: ZBounceReportInput,
      maxBodyBytes: 256 * 1024,
      rateLimit: { name: "newsletters.bounces", limit: 120, windowSeconds: 60, by: "key" },
      summary:
        '{bounces: [{email, type: "bounce"|"complaint", detail?}] (1 to 1000)} → {addresses, unsubscribed, deliveries_marked}: each address is suppressed for the account (a complaint outranks a bounce), its newsletter subscriptions become "unsubscribed" (source "bounce" or "complaint"), and its latest newsletter delivery is marked bounced (bounced_at). Idempotent. 400 for a bad body, changing nothing.',
    },
    async ({ db, account, body }) => {
      const done = await recordBounceReports(db, { accountId: account.id, input: body, now: new Date() });
      return json({
        addresses: done.addresses,
        unsubscribed: done.unsubscribed,
        deliveries_marked: done.deliveriesMarked,
      });
    },
  ),
});
