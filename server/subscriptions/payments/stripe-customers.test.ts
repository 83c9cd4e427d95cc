/**
 * The reader's Stripe customer (stripe-customers.ts) against the fake Stripe server, with an
 * in-memory record: the first recorded customer wins a race, and a customer made by the loser
 * (from another request, so under another idempotency key) is deleted at Stripe again.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import type { FakeStripe } from "../../testing/fake-stripe";
import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import type { GatewayCredentials, GatewayCustomers, PaymentIntent } from "./adapter";
import { stripeCustomerOf } from "./stripe-customers";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

/** A record where both callers look before either records (the race), then the first wins. */
function racingRecord(): GatewayCustomers & { recorded: () => string | null } {
  let recorded: string | null = null;
  let looked = 0;
  let release: () => void = () => undefined;
  const bothLooked = new Promise<void>((resolve) => (release = resolve));
  return {
    key: "7-42",
    recorded: () => recorded,
    async find() {
      if (++looked === 2) release();
      await bothLooked;
      return null;
    },
    remember(_p, _e, id) {
      recorded ??= id;
      return Promise.resolve(recorded);
    },
    forget: () => Promise.resolve(),
  };
}

describe("the reader's Stripe customer", () => {
  it("keeps the first recorded of two racing checkouts and deletes the other's customer", async () => {
    const stripe = new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 });
    const creds: GatewayCredentials = {
      app_key: fake.publishableKey,
      secret: fake.secretKey,
      enabled: true,
      webhook_secret: null,
      environment: "sandbox",
    };
    const customers = racingRecord();
    const intent = (name: string): PaymentIntent => ({
      accountId: 7,
      attemptId: name,
      amountCents: 1000,
      currency: "USD",
      recurring: false,
      plan: { id: 1, title: "Monthly" },
      subscriber: { id: 42, name, email: "ada@example.com", phone: null },
      customers,
    });
    // Two requests that differ (the reader renamed between them): two customers at Stripe.
    const [a, b] = await Promise.all([
      stripeCustomerOf(stripe, creds, intent("Ada")),
      stripeCustomerOf(stripe, creds, intent("Ada L.")),
    ]);
    expect(a).toBe(b);
    expect(a).toBe(customers.recorded());
    const made = fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/customers");
    expect(made).toHaveLength(2);
    const all = [...fake.state.customers.values()];
    expect(all.filter((c) => !c.deleted).map((c) => c.id)).toEqual([a]);
    expect(all.filter((c) => c.deleted)).toHaveLength(1);
  });

  it("makes none for a guest without a subscriber record", async () => {
    const stripe = new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 });
    const before = fake.calls.length;
    const guest = await stripeCustomerOf(
      stripe,
      { app_key: "pk_test_x", secret: fake.secretKey, enabled: true, webhook_secret: null, environment: "sandbox" },
      {
        accountId: 7,
        attemptId: "a",
        amountCents: 1000,
        currency: "USD",
        recurring: true,
        plan: { id: 1, title: "Monthly" },
        subscriber: { id: null, name: null, email: "gus@example.com", phone: null },
      },
    );
    expect(guest).toBeNull();
    expect(fake.calls.length).toBe(before);
  });
});
