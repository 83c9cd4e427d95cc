// POST /api/access/v1/members/me/subscriptions/{id}/card-link – a signed "update your card" link for a reader in grace (client API)
import { getEnv } from "@/env.js";
import { AppError } from "@/server/errors";
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { updateCardLink } from "@/server/subscriptions/recurring/dunning";
import { notFoundSubscription } from "@/server/subscriptions/subscribers/subscription-view";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      rateLimit: READER_WRITE_LIMIT,
      summary:
        "No body → {url, expires_at}: the signed link (HMAC, bound to this subscription and reader, expiring with the grace period, at most 14 days) to the card update of one of the reader's subscriptions in its grace period, the same link the 'update your card' e-mail carries; it works without a password or session (a reader known only by the publisher's JWT). The JWT is required (401 without); 404 for another reader's or account's id; 422 when the subscription is not in its grace period.",
    },
    async ({ db, account, user, params }) => {
      const memberId = await readerMemberId(db, account.id, user);
      const now = new Date();
      const sub = await db.subscription.findFirst({
        where: { id: params.subscription_id, accountId: account.id, memberId, deletedAt: null },
        select: { id: true, status: true, graceEndsAt: true },
      });
      if (!sub) throw notFoundSubscription();
      if (sub.status !== "ACTIVE" || !sub.graceEndsAt || sub.graceEndsAt <= now)
        throw new AppError(
          "UNPROCESSABLE",
          "This subscription is not in its grace period: its card needs no update now.",
          {
            details: [{ field: "subscription", issue: "is not in its grace period" }],
          },
        );
      const url = await updateCardLink(db, {
        accountId: account.id,
        subscriptionId: sub.id,
        appUrl: getEnv().APP_URL,
        now,
      });
      return json({ url, expires_at: sub.graceEndsAt.toISOString() }, PRIVATE_NO_STORE);
    },
  ),
});
