// PATCH /api/access/v1/members/me/subscriptions/{id}/extend – move the end of a one-time subscription (client API)
import { z } from "zod";

import { AppError } from "@/server/errors";
import {
  PRIVATE_NO_STORE,
  READER_SUBSCRIPTION_ROUTE,
  READER_WRITE_LIMIT,
  readerMemberId,
} from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";
import { ZExtendTo } from "@/server/subscriptions/subscribers/subscription-actions.schema";
import { extendSubscription } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PATCH: apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      query: ZClientQuery.extend({ extend_to: ZExtendTo.optional() }),
      body: z.object({ extend_to: ZExtendTo.optional() }),
      rateLimit: READER_WRITE_LIMIT,
      summary:
        'extend_to (body or query): "indefinitely" or YYYY-MM-DD (the end becomes the end of that day, UTC; not in the past, after the current end) → {message: "Subscription Extended"}. 422 for recurring, cancelled or failed subscriptions and for a date not allowed; 400 for another form.',
    },
    async ({ db, account, user, params, body, query }) => {
      const extendTo = body.extend_to ?? query.extend_to;
      if (!extendTo) {
        throw new AppError("BAD_REQUEST", "extend_to is required: indefinitely or a date YYYY-MM-DD.", {
          details: [{ field: "body.extend_to", issue: "is required" }],
        });
      }
      const memberId = await readerMemberId(db, account.id, user);
      await extendSubscription(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId },
        id: params.subscription_id,
        extendTo,
        now: new Date(),
      });
      return json({ message: "Subscription Extended" }, PRIVATE_NO_STORE);
    },
  ),
});
