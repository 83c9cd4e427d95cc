/**
 * The fake Stripe server's browser side (fake-stripe-browser.ts): it serves the fake Stripe.js,
 * confirms a PaymentIntent only for its publishable key and client secret, decides by Stripe's
 * test cards (3-D Secure completed or failed), and its renew control answers a webhook the SDK
 * verifies.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import type { FakeStripe } from "./fake-stripe";
import { withFakeStripe } from "./fake-stripe-hooks";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, Record<string, unknown>> };
};

function intent() {
  const pi = fake.state.createPaymentIntent({ amount: 900, currency: "usd", metadata: { attempt_id: "a" } });
  const auth = { key: fake.publishableKey, client_secret: pi.client_secret };
  const confirm = (number: string, over: Record<string, unknown> = {}) =>
    post(`/js/payment_intents/${pi.id as string}/confirm`, { ...auth, card: { number }, ...over });
  const authenticate = (passed: boolean) =>
    post(`/js/payment_intents/${pi.id as string}/authenticate`, { ...auth, passed });
  return { pi, confirm, authenticate };
}

describe("the fake Stripe's browser side", () => {
  it("serves the fake Stripe.js at /v3/", async () => {
    const res = await fetch(`${fake.url}/v3/`);
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    const script = await res.text();
    expect(script).toContain("confirmPayment");
    expect(script).toContain("Complete authentication");
  });

  it("confirms only with the publishable key and the client secret, by Stripe's test cards", async () => {
    const a = intent();
    expect((await a.confirm("4242424242424242", { key: "pk_test_other" })).status).toBe(401);
    expect((await a.confirm("4242424242424242", { client_secret: "pi_x_secret_y" })).status).toBe(404);
    const paid = await a.confirm("4242424242424242");
    expect([paid.status, paid.body.payment_intent?.status]).toEqual([200, "succeeded"]);

    const declined = await intent().confirm("4000000000000002");
    expect([declined.status, declined.body.error?.code, declined.body.error?.message]).toEqual([
      402,
      "card_declined",
      "Your card was declined.",
    ]);
  });

  it("holds a 3-D Secure card until the challenge is completed or failed", async () => {
    const passing = intent();
    expect((await passing.confirm("4000002760003184")).body.payment_intent?.status).toBe("requires_action");
    expect((await passing.authenticate(true)).body.payment_intent?.status).toBe("succeeded");

    const failing = intent();
    await failing.confirm("4000002760003184");
    const failed = await failing.authenticate(false);
    expect([failed.status, failed.body.error?.code]).toEqual([402, "payment_intent_authentication_failure"]);
    expect(fake.state.paymentIntents.get(failing.pi.id as string)!.status).toBe("requires_payment_method");
  });

  it("renews a subscription on request with its secret key, answering the webhook Stripe signs", async () => {
    const sdk = new Stripe(fake.secretKey, {
      ...fake.sdkOptions,
      apiVersion: Stripe.API_VERSION,
      maxNetworkRetries: 0,
    });
    const customer = await sdk.customers.create({ email: "r@example.com" });
    await sdk.products.create({ id: "prod_x", name: "Monthly" });
    const sub = await sdk.subscriptions.create({
      customer: customer.id,
      items: [
        { price_data: { currency: "usd", product: "prod_x", unit_amount: 900, recurring: { interval: "month" } } },
      ],
      payment_behavior: "default_incomplete",
      expand: ["latest_invoice.confirmation_secret"],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    fake.pay(invoice.confirmation_secret!.client_secret.split("_secret_")[0]!, "succeeded");
    expect((await post(`/_fake/subscriptions/${sub.id}/renew`, { outcome: "failed" })).status).toBe(401);
    const renewed = await post(
      `/_fake/subscriptions/${sub.id}/renew`,
      { outcome: "failed" },
      { authorization: `Bearer ${fake.secretKey}` },
    );
    expect(renewed.status).toBe(200);
    const hook = renewed.body.webhook as { body: string; headers: Record<string, string> };
    const event = sdk.webhooks.constructEvent(hook.body, hook.headers["stripe-signature"]!, fake.webhookSecret);
    expect(event.type).toBe("invoice.payment_failed");
    expect(fake.state.subscriptions.get(sub.id)!.status).toBe("past_due");
  });
});
