/**
 * Stripe's webhooks as the adapter reads them, with events signed by the SDK's own test helper:
 * a forged, stale, missing or malformed signature is refused (false, never an exception); the
 * details name Stripe's event id, the subscription of an invoice, the amount, whether it is a
 * subscription's charge, and the card a subscription now charges. Stripe keys in the dashboard:
 * prefixes and one mode, the environment following the keys.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import type { GatewayRequest } from "./adapter";
import { ZUpsertGatewayInput } from "./gateways.schema";
import { STRIPE_WEBHOOK_TOLERANCE_SECONDS, stripeEventDetails, stripeSignatureValid } from "./stripe-events";

const SECRET = "whsec_test0123456789abcdef";
const now = () => Math.floor(Date.now() / 1000);

function signed(
  type: string,
  object: Record<string, unknown>,
  opts: { timestamp?: number; previous?: object; secret?: string } = {},
): GatewayRequest {
  const rawBody = JSON.stringify({
    id: "evt_1QabcDEF",
    object: "event",
    api_version: Stripe.API_VERSION,
    created: now(),
    type,
    livemode: false,
    data: { object, ...(opts.previous ? { previous_attributes: opts.previous } : {}) },
  });
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: rawBody,
    secret: opts.secret ?? SECRET,
    timestamp: opts.timestamp ?? now(),
  });
  return { rawBody, headers: new Headers({ "stripe-signature": header }) };
}

const invoice = {
  id: "in_1Qinv",
  object: "invoice",
  status: "paid",
  currency: "usd",
  amount_due: 1000,
  amount_paid: 1000,
  billing_reason: "subscription_cycle",
  customer_email: "ada@example.com",
  parent: {
    type: "subscription_details",
    subscription_details: { subscription: "sub_1Qsub", metadata: { attempt_id: "a-1" } },
  },
};

describe("Stripe webhook signatures", () => {
  it("accepts Stripe's own signature and refuses a forged, stale, missing or malformed one", () => {
    const good = signed("invoice.paid", invoice);
    expect(stripeSignatureValid(good, SECRET)).toBe(true);
    expect(stripeSignatureValid(signed("invoice.paid", invoice, { secret: "whsec_other" }), SECRET)).toBe(false);
    expect(stripeSignatureValid({ ...good, rawBody: good.rawBody.replace("1000", "9000") }, SECRET)).toBe(false);
    // A replay of an old delivery: signed more than 300 s ago.
    const stale = signed("invoice.paid", invoice, { timestamp: now() - STRIPE_WEBHOOK_TOLERANCE_SECONDS - 5 });
    expect(stripeSignatureValid(stale, SECRET)).toBe(false);
    expect(stripeSignatureValid(signed("invoice.paid", invoice, { timestamp: now() - 200 }), SECRET)).toBe(true);
    for (const header of ["", "garbage", "t=abc,v1=zz", "t=1,v1=abc", `t=${now()},v1=${"a".repeat(63)}`])
      expect(
        stripeSignatureValid({ ...good, headers: new Headers({ "stripe-signature": header }) }, SECRET),
        header,
      ).toBe(false);
    expect(stripeSignatureValid({ ...good, headers: new Headers() }, SECRET)).toBe(false);
    expect(stripeSignatureValid(good, null)).toBe(false);
  });
});

describe("Stripe event details", () => {
  it("reads a subscription's paid invoice as its charge: the event id, the invoice, the subscription and the amount", () => {
    expect(stripeEventDetails(signed("invoice.paid", invoice))).toMatchObject({
      eventId: "evt_1QabcDEF",
      event: "invoice.paid",
      externalPaymentId: "in_1Qinv",
      externalSubscriptionId: "sub_1Qsub",
      amountCents: 1000,
      currency: "USD",
      status: "paid",
      recurring: true,
      notes: { attempt_id: "a-1" },
    });
  });

  it("tells a one-time PaymentIntent (it carries the attempt) from a subscription invoice's", () => {
    const pi = { id: "pi_1Q", object: "payment_intent", amount: 4900, currency: "usd", status: "succeeded" };
    expect(
      stripeEventDetails(signed("payment_intent.succeeded", { ...pi, metadata: { attempt_id: "a-2" } })),
    ).toMatchObject({
      externalPaymentId: "pi_1Q",
      externalOrderId: "pi_1Q",
      amountCents: 4900,
      status: "captured",
      recurring: false,
    });
    expect(stripeEventDetails(signed("payment_intent.succeeded", { ...pi, metadata: {} })).recurring).toBe(true);
  });

  it("names the subscription's new card only when its default payment method changed", () => {
    const sub = {
      id: "sub_1Qsub",
      object: "subscription",
      status: "active",
      default_payment_method: "pm_new",
      metadata: {},
    };
    expect(
      stripeEventDetails(
        signed("customer.subscription.updated", sub, { previous: { default_payment_method: "pm_old" } }),
      ).paymentMethod,
    ).toEqual({ token: "pm_new", label: null });
    expect(
      stripeEventDetails(signed("customer.subscription.updated", sub, { previous: { cancel_at_period_end: false } }))
        .paymentMethod,
    ).toBeNull();
  });

  it("reads the subscription's state Masthead follows, and when Stripe made the event", () => {
    const sub = { id: "sub_1Qsub", object: "subscription", status: "active", metadata: {}, cancel_at: null };
    const state = (over: Record<string, unknown>) =>
      stripeEventDetails(signed("customer.subscription.updated", { ...sub, ...over })).gatewaySubscription;
    expect(state({ cancel_at_period_end: false, pause_collection: null })).toEqual({
      state: "active",
      resumesAt: null,
    });
    expect(state({ status: "trialing", cancel_at_period_end: true, cancel_at: 1_900_000_000 })).toEqual({
      state: "cancelling",
      resumesAt: null,
    });
    expect(state({ pause_collection: { behavior: "void", resumes_at: 1_900_000_000 } })).toEqual({
      state: "paused",
      resumesAt: new Date(1_900_000_000_000),
    });
    expect(state({ pause_collection: { behavior: "keep_as_draft", resumes_at: null } })).toEqual({
      state: "paused",
      resumesAt: null,
    });
    expect(state({ status: "canceled" })?.state).toBe("ended");
    expect(state({ status: "incomplete" })?.state).toBe("other");
    const details = stripeEventDetails(signed("customer.subscription.updated", sub));
    expect(Math.abs(details.occurredAt!.getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("refuses what is not a Stripe event", () => {
    for (const rawBody of ["", "[]", "{}", '{"object":"event","id":"x","type":"a","data":{"object":{}}}'])
      expect(() => stripeEventDetails({ rawBody, headers: new Headers() }), rawBody).toThrow("not a Stripe event");
  });
});

describe("Stripe keys in the dashboard", () => {
  const save = (over: Record<string, unknown>) =>
    ZUpsertGatewayInput.safeParse({
      provider: "stripe",
      environment: "sandbox",
      appKey: "pk_test_51Abc",
      secret: "sk_test_51Abc",
      webhookSecret: "whsec_abc123",
      ...over,
    });
  const problems = (over: Record<string, unknown>) =>
    (save(over).error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

  it("takes test keys for the sandbox and live keys (or a restricted key) for live", () => {
    expect(save({}).success).toBe(true);
    expect(save({ environment: "live", appKey: "pk_live_9", secret: "rk_live_9" }).success).toBe(true);
  });

  it("says which key is wrong", () => {
    expect(problems({ appKey: "rzp_test_1" })).toEqual([
      ["appKey", "The Stripe publishable key starts with pk_test_ or pk_live_ (Developers → API keys)."],
    ]);
    expect(problems({ environment: "live" })).toEqual([
      ["environment", "The publishable key is a test key: the environment must be sandbox."],
    ]);
    expect(problems({ secret: "sk_live_1" })).toEqual([
      ["secret", "The secret key is a live key, the publishable key a test key."],
    ]);
    expect(problems({ secret: "pk_test_1" })[0]?.[0]).toBe("secret");
    expect(problems({ webhookSecret: "abc12345" })[0]?.[0]).toBe("webhookSecret");
  });
});
