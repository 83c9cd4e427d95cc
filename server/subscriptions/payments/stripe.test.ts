/**
 * The Stripe adapter against the fake Stripe server, through the official SDK: what it asks
 * Stripe for (pinned API version, idempotency keys, metadata), what it grants (3-D Secure pending
 * until done, a tampered amount or another attempt's payment refused), Stripe's errors in words
 * (never the secret key), refunds, the card change and the renewal's period end.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import type { FakeStripe } from "../../testing/fake-stripe";
import { fakeStripeAdapter, fakeStripeCredentials } from "../../testing/fake-stripe-adapter";
import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import { PaymentAdapterError, type GatewayCredentials, type PaymentIntent } from "./adapter";
import { createStripeAdapter } from "./stripe";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { resetEach: true });

const adapter = () => fakeStripeAdapter(fake);
const creds = (over: Partial<GatewayCredentials> = {}) => fakeStripeCredentials(fake, over);
let attempt = 0;
const intent = (over: Partial<PaymentIntent> = {}): PaymentIntent => ({
  accountId: 7,
  attemptId: `0f9c2b8e-3f5a-4c1d-9a7e-2b6d8c4e1a${String(10 + ++attempt).padStart(2, "0")}`,
  amountCents: 1_000,
  currency: "USD",
  recurring: false,
  plan: { id: 3, title: "Monthly" },
  subscriber: { id: 1, name: "Ada", email: "ada@example.com", phone: null },
  ...over,
});
const recurringIntent = (over: Partial<PaymentIntent> = {}) =>
  intent({ recurring: true, period: { length: 1, unit: "MONTHS" }, periodCents: 1_000, ...over });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof PaymentAdapterError ? { kind: e.kind, message: e.message } : e),
  );

describe("Stripe one-time payments", () => {
  it("creates a PaymentIntent with the pinned API version, an idempotency key and the attempt in its metadata", async () => {
    const i = intent();
    const prepared = await adapter().preparePayment(creds(), i);
    const call = fake.calls.find((c) => c.path === "/v1/payment_intents")!;
    expect(call.stripeVersion).toBe(Stripe.API_VERSION);
    expect(call.idempotencyKey).toBe(`masthead-payment-${i.attemptId}`);
    expect(call.params).toMatchObject({ amount: "1000", currency: "usd", metadata: { attempt_id: i.attemptId } });
    const pi = fake.state.paymentIntents.get(prepared.externalReferenceId!)!;
    expect(prepared.clientOptions).toEqual({
      publishable_key: fake.publishableKey,
      mode: "payment",
      payment_intent_id: pi.id,
      client_secret: pi.client_secret,
    });
    expect(JSON.stringify(prepared)).not.toContain(fake.secretKey);
  });

  it("is pending through 3-D Secure and captured once it passes", async () => {
    const i = intent();
    const prepared = await adapter().preparePayment(creds(), i);
    const pi = prepared.externalReferenceId!;
    fake.pay(pi, "requires_action");
    const proof = { paymentToken: pi, externalReferenceId: pi, extra: {} };
    expect((await adapter().verifyPayment(creds(), i, proof)).status).toBe("pending");
    fake.completeAction(pi, true);
    expect(await adapter().verifyPayment(creds(), i, proof)).toMatchObject({
      status: "captured",
      externalPaymentId: pi,
      externalOrderId: pi,
    });
  });

  it("fails a declined payment with Stripe's words, and a failed 3-D Secure check", async () => {
    const i = intent();
    const pi = (await adapter().preparePayment(creds(), i)).externalReferenceId!;
    fake.pay(pi, "declined");
    const proof = { paymentToken: pi, externalReferenceId: pi, extra: {} };
    expect(await adapter().verifyPayment(creds(), i, proof)).toMatchObject({
      status: "failed",
      reason: "Your card has insufficient funds.",
    });
    fake.pay(pi, "requires_action");
    fake.completeAction(pi, false);
    expect((await adapter().verifyPayment(creds(), i, proof)).reason).toMatch(/unable to authenticate/);
  });

  it("refuses a PaymentIntent of another amount, currency or attempt", async () => {
    const i = intent();
    const pi = (await adapter().preparePayment(creds(), i)).externalReferenceId!;
    fake.pay(pi, "succeeded");
    const proof = { paymentToken: pi, externalReferenceId: pi, extra: {} };
    expect((await adapter().verifyPayment(creds(), { ...i, amountCents: 999 }, proof)).status).toBe("failed");
    expect((await adapter().verifyPayment(creds(), { ...i, currency: "EUR" }, proof)).status).toBe("failed");
    expect((await adapter().verifyPayment(creds(), { ...i, attemptId: intent().attemptId }, proof)).reason).toBe(
      "The payment is not for this checkout.",
    );
    // The currency's case does not matter (ISO codes): usd is USD.
    expect((await adapter().verifyPayment(creds(), { ...i, currency: "usd" }, proof)).status).toBe("captured");
  });

  it("says what is wrong in words, never with the secret key", async () => {
    expect(await refusal(adapter().preparePayment(creds({ secret: "sk_test_notthekey123456" }), intent()))).toEqual({
      kind: "unavailable",
      message: "Stripe refused the account's secret key.",
    });
    fake.failNext(1, 500);
    expect(await refusal(adapter().preparePayment(creds(), intent()))).toEqual({
      kind: "unavailable",
      message: "Stripe is unavailable.",
    });
    fake.failNext(1, 429);
    expect(((await refusal(adapter().preparePayment(creds(), intent()))) as { kind: string }).kind).toBe("unavailable");
    expect(await refusal(adapter().preparePayment(creds(), intent({ amountCents: 10 })))).toEqual({
      kind: "invalid",
      message: "Stripe refused the request: Amount must be at least 50 cents",
    });
    const closed = createStripeAdapter({
      connection: () => ({ host: "127.0.0.1", port: 9, protocol: "http" }),
      maxNetworkRetries: 0,
    });
    expect(await refusal(closed.preparePayment(creds(), intent()))).toEqual({
      kind: "unavailable",
      message: "Stripe could not be reached.",
    });
  });

  it("refunds part of a payment once per refund id", async () => {
    const i = intent();
    const pi = (await adapter().preparePayment(creds(), i)).externalReferenceId!;
    fake.pay(pi, "succeeded");
    const request = {
      accountId: 7,
      refundId: 41,
      paymentType: "stripe",
      externalPaymentId: pi,
      paymentAmountCents: 1_000,
      amountCents: 300,
      currency: "USD",
      reason: "asked",
    };
    const first = await adapter().refund!(creds(), request);
    expect(first.externalRefundId).toMatch(/^re_/);
    expect((await adapter().refund!(creds(), request)).externalRefundId).toBe(first.externalRefundId);
    expect([...fake.state.refunds.values()].map((r) => r.amount)).toEqual([300]);
    expect(await refusal(adapter().refund!(creds(), { ...request, refundId: 42, amountCents: 800 }))).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("greater than unrefunded amount") as unknown,
    });
  });
});

describe("Stripe subscriptions", () => {
  it("makes a default_incomplete subscription starting at the trial's end, whose first invoice is the authorization", async () => {
    const i = recurringIntent({ amountCents: 500, trial: { length: 14, unit: "DAYS" } });
    const prepared = await adapter().preparePayment(creds(), i);
    const sub = fake.subscription(prepared.externalReferenceId!);
    const asked = fake.calls.find((c) => c.path === "/v1/subscriptions")!.params;
    expect(asked).toMatchObject({
      payment_behavior: "default_incomplete",
      metadata: { attempt_id: i.attemptId },
      items: [
        { price_data: { unit_amount: "1000", currency: "usd", recurring: { interval: "month", interval_count: "1" } } },
      ],
      add_invoice_items: [{ price_data: { unit_amount: "500" } }],
    });
    expect(Math.abs((sub.trial_end as number) - (Date.now() / 1000 + 14 * 86_400))).toBeLessThan(5);
    const invoice = fake.invoice(sub.latest_invoice as string);
    expect(invoice).toMatchObject({ total: 500, status: "open", billing_reason: "subscription_create" });
    expect(prepared.clientOptions).toMatchObject({
      mode: "subscription",
      client_secret: expect.stringMatching(/^pi_/) as unknown,
    });

    const pi = fake.state.invoices.get(invoice.id as string)!.payment_intent_id as string;
    fake.pay(pi, "succeeded");
    const proof = {
      paymentToken: prepared.externalReferenceId,
      externalReferenceId: prepared.externalReferenceId,
      extra: {},
    };
    expect(await adapter().verifyPayment(creds(), i, proof)).toMatchObject({
      status: "captured",
      externalPaymentId: invoice.id,
      externalOrderId: sub.id,
    });
    // The first invoice's payment is refunded through its PaymentIntent (the trial refund).
    const refund = await adapter().refund!(creds(), {
      accountId: 7,
      refundId: 9,
      paymentType: "stripe_recurring",
      externalPaymentId: invoice.id as string,
      paymentAmountCents: 500,
      amountCents: 500,
      currency: "USD",
      reason: null,
    });
    expect(fake.state.refunds.get(refund.externalRefundId!)).toMatchObject({ payment_intent: pi, amount: 500 });
  });

  it("refuses a Stripe price of another amount, and a subscription of another attempt", async () => {
    fake.state.prices.set("price_cheap", {
      id: "price_cheap",
      object: "price",
      currency: "usd",
      unit_amount: 100,
      product: "prod_x",
      recurring: { interval: "month", interval_count: 1 },
    });
    expect(
      await refusal(
        adapter().preparePayment(
          creds(),
          recurringIntent({ plan: { id: 3, title: "M", metadata: { stripe_price_id: "price_cheap" } } }),
        ),
      ),
    ).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("Stripe would charge another amount") as unknown,
    });
    const mine = recurringIntent();
    const ref = (await adapter().preparePayment(creds(), mine)).externalReferenceId!;
    const proof = { paymentToken: ref, externalReferenceId: ref, extra: {} };
    expect((await adapter().verifyPayment(creds(), { ...mine, attemptId: intent().attemptId }, proof)).status).toBe(
      "failed",
    );
    expect((await adapter().verifyPayment(creds(), mine, proof)).status).toBe("failed");
  });

  it("takes a new card from a confirmed SetupIntent of the subscriber, pays the open invoice with it, and reads the period end from the items", async () => {
    const i = recurringIntent();
    const ref = (await adapter().preparePayment(creds(), i)).externalReferenceId!;
    const sub = fake.state.subscriptions.get(ref)!;
    fake.pay(fake.state.invoices.get(sub.latest_invoice as string)!.payment_intent_id as string, "succeeded");
    const { invoice } = fake.renew(ref, "failed");
    expect(invoice.status).toBe("open");
    const update = (token: string) =>
      adapter().updatePaymentMethod!(creds(), {
        accountId: 7,
        subscriptionId: 1,
        currentPaymentToken: ref,
        gatewayReference: ref,
        proof: { paymentToken: token, extra: {} },
      });
    const other = await new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 }).customers.create({});
    const foreign = await new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 }).setupIntents.create({
      customer: other.id,
    });
    fake.confirmSetupIntent(foreign.id);
    expect(await refusal(update(foreign.id))).toEqual({
      kind: "declined",
      message: "The new card is not this subscriber's.",
    });

    const si = await new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 }).setupIntents.create({
      customer: sub.customer as string,
    });
    expect(await refusal(update(si.id))).toMatchObject({ kind: "declined" });
    const pm = fake.confirmSetupIntent(si.id, { brand: "mastercard", last4: "4444" });
    expect(await update(si.id)).toEqual({ paymentToken: pm.id, label: "Mastercard ending 4444" });
    expect(sub.default_payment_method).toBe(pm.id);
    expect(fake.invoice(invoice.id as string).status).toBe("paid");

    // A card Stripe declines (its test card ending 0002) for the open invoice: declined, in Stripe's words.
    fake.renew(ref, "failed");
    const declining = await new Stripe(fake.secretKey, {
      ...fake.sdkOptions,
      maxNetworkRetries: 0,
    }).setupIntents.create({
      customer: sub.customer as string,
    });
    fake.confirmSetupIntent(declining.id, { last4: "0002" });
    expect(await refusal(update(declining.id))).toEqual({
      kind: "declined",
      message: "Your card has insufficient funds.",
    });
    expect(sub.default_payment_method).toBe(pm.id);

    const end = (sub.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end;
    const renewed = await adapter().renewal!(creds(), {
      eventId: "evt_x",
      event: "invoice.paid",
      externalPaymentId: null,
      externalOrderId: null,
      externalSubscriptionId: ref,
      amountCents: null,
      currency: null,
      notes: {},
    });
    expect(renewed.endTimestamp?.getTime()).toBe(end * 1000);
    const portal = await adapter().hostedPaymentMethodUpdate!(creds(), {
      accountId: 7,
      subscriptionId: 1,
      gatewayReference: ref,
      currentPaymentToken: ref,
    });
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
  });
});
