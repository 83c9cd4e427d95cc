/**
 * A gateway's subscription as the gateway reports it (adapter.ts customerSubscriptions): what an
 * import needs to take a reader's subscriptions over from the gateway itself, as Ghost links a
 * member's Stripe customer (server/imports/readers/ghost-stripe.ts). Money in integer minor units.
 */
export type GatewaySubscriptionRecord = {
  /** The gateway's subscription id (Stripe `sub_…`). */
  id: string;
  customerId: string;
  /** The gateway's price or plan id the subscription charges (what a plan mapping maps). */
  planRef: string | null;
  /** The gateway's own word for its state (Stripe: active, trialing, past_due, canceled, …). */
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** What one unit of the price charges each period, and how many units. */
  unitAmountCents: number | null;
  quantity: number;
  currency: string;
  startedAt: Date;
};
