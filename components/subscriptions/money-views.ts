/**
 * After a change to a subscriber's money (a refund, which also issues a credit note and may mark
 * the invoice refunded; a cancel, a pause, an extension), every dashboard view that shows money
 * or documents derived from it is read again: the revenue views (a subscriber's payments, the
 * reports), the invoices and credit notes, the subscriptions and the subscribers. One list, so no
 * screen shows the change in one panel and not in the one beside it until it is reopened.
 */
import type { QueryClient } from "@tanstack/react-query";

import type { useTRPC } from "@/components/trpc/react";

type Trpc = ReturnType<typeof useTRPC>;

const MONEY_VIEW_ROUTERS = ["revenue", "invoices", "subscriberSubscriptions", "subscribers"] as const;

export function invalidateMoneyViews(queryClient: QueryClient, trpc: Trpc): Promise<unknown> {
  return Promise.all(
    MONEY_VIEW_ROUTERS.map((router) => queryClient.invalidateQueries({ queryKey: trpc[router].pathKey() })),
  );
}
