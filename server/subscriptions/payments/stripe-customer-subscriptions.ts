/**
 * The Stripe subscriptions of one Stripe customer (adapter customerSubscriptions), every status,
 * every page, as GatewaySubscriptionRecords: how a Ghost member's `stripe_customer_id` brings
 * the member's subscriptions over (server/imports/readers/ghost-stripe.ts).
 */
import "server-only";

import type Stripe from "stripe";

import type { GatewaySubscriptionRecord } from "./gateway-records";
import { stripeIdOf as idOf, stripeCall } from "./stripe-client";

export async function stripeCustomerSubscriptions(
  stripe: Stripe,
  customerId: string,
): Promise<GatewaySubscriptionRecord[]> {
  const records: GatewaySubscriptionRecord[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await stripeCall(() =>
      stripe.subscriptions.list({
        customer: customerId,
        status: "all",
        limit: 100,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      }),
    );
    for (const sub of page.data) {
      const item = sub.items.data[0];
      // Since API 2025-03-31 the period lives on each item: the subscription is paid to the latest.
      const ends = sub.items.data.map((i) => i.current_period_end).filter((n) => Number.isInteger(n));
      records.push({
        id: sub.id,
        customerId: idOf(sub.customer) ?? customerId,
        planRef: item?.price.id ?? null,
        status: sub.status,
        currentPeriodEnd: ends.length ? new Date(Math.max(...ends) * 1000) : null,
        cancelAtPeriodEnd: sub.cancel_at_period_end,
        unitAmountCents: item?.price.unit_amount ?? null,
        quantity: item?.quantity ?? 1,
        currency: sub.currency.toUpperCase(),
        startedAt: new Date(sub.start_date * 1000),
      });
    }
    if (!page.has_more || page.data.length === 0) return records;
    startingAfter = page.data[page.data.length - 1]!.id;
  }
}
