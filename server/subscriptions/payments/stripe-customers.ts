/**
 * One Stripe customer per reader (docs/subscriptions.md "Stripe" → "One Stripe customer per
 * reader"): a known subscriber's Stripe subscriptions, one-time PaymentIntents and Customer Portal
 * sessions share one Customer per account and environment, recorded in member_gateway_customers
 * (gateway-customers.ts).
 *
 * - Recorded and known to Stripe: reused; its e-mail is brought up to the reader's when it differs.
 * - Recorded but gone at Stripe (deleted, or keys of another Stripe account): forgotten, made anew.
 * - None: `customers.create` with an idempotency key of the account, member, environment and the
 *   request's digest (two concurrent checkouts of one reader send the same request and get the
 *   same customer), then recorded; the first recorded wins, and a customer that lost the race
 *   (made from a different request) is deleted again.
 * - A guest without a subscriber record (no `intent.customers`): null; the caller makes a
 *   customer for the attempt alone.
 */
import "server-only";

import { createHash } from "node:crypto";

import type Stripe from "stripe";

import type { GatewayCredentials, PaymentIntent } from "./adapter";
import { stripeAdapterError, stripeCall, stripeErrorCode } from "./stripe-client";

const PROVIDER = "stripe";

/** The reader's Stripe customer, made if need be; null for a guest without a record. */
export async function stripeCustomerOf(
  stripe: Stripe,
  creds: GatewayCredentials,
  intent: PaymentIntent,
): Promise<string | null> {
  const customers = intent.customers;
  const memberId = intent.subscriber.id;
  if (!customers || memberId === null) return null;
  const env = creds.environment;
  const recorded = await customers.find(PROVIDER, env);
  let replaces: string | null = null;
  if (recorded) {
    const known = await liveCustomer(stripe, recorded);
    if (known) {
      const email = intent.subscriber.email;
      if (email && known.email !== email) await stripeCall(() => stripe.customers.update(known.id, { email }));
      return known.id;
    }
    await customers.forget(PROVIDER, env, recorded);
    replaces = recorded;
  }
  const params: Stripe.CustomerCreateParams = {
    ...(intent.subscriber.email ? { email: intent.subscriber.email } : {}),
    ...(intent.subscriber.name ? { name: intent.subscriber.name } : {}),
    metadata: { account_id: String(intent.accountId), member_id: String(memberId) },
  };
  const digest = createHash("sha256")
    .update(JSON.stringify([params, replaces]))
    .digest("hex")
    .slice(0, 16);
  const made = await stripeCall(() =>
    stripe.customers.create(params, { idempotencyKey: `masthead-customer-${customers.key}-${env}-${digest}` }),
  );
  const winner = await customers.remember(PROVIDER, env, made.id);
  if (winner !== made.id) {
    // Another checkout of the reader recorded its customer first: ours is nobody's.
    await stripe.customers.del(made.id).catch(() => undefined);
  }
  return winner;
}

/** The customer as Stripe knows it, or null when Stripe no longer does (deleted, another account). */
async function liveCustomer(stripe: Stripe, id: string): Promise<Stripe.Customer | null> {
  try {
    const customer = await stripe.customers.retrieve(id);
    return customer.deleted ? null : customer;
  } catch (error) {
    if (stripeErrorCode(error) === "resource_missing") return null;
    return stripeAdapterError(error);
  }
}
