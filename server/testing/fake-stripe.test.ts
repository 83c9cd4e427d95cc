/**
 * The fake Stripe server refuses what Stripe refuses, as the official SDK sees it: a wrong key
 * (401), an unknown id (404 resource_missing), a missing or non-integer parameter (400), and it
 * answers a repeated Idempotency-Key with the first answer (another request under it: 400).
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import { decodeStripeForm, type FakeStripe } from "./fake-stripe";
import { withFakeStripe } from "./fake-stripe-hooks";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

const sdk = (key = fake.secretKey) =>
  new Stripe(key, { ...fake.sdkOptions, apiVersion: Stripe.API_VERSION, maxNetworkRetries: 0 });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: InstanceType<typeof Stripe.errors.StripeError>) => ({
      name: e.constructor.name,
      status: e.statusCode,
      type: e.type,
      code: e.code ?? null,
      param: e.param ?? null,
    }),
  );

describe("fake Stripe server", () => {
  it("decodes the SDK's bracket notation into objects and arrays", () => {
    expect(
      decodeStripeForm("metadata[attempt_id]=a1&items[0][price_data][unit_amount]=500&expand[0]=x&expand[1]=y"),
    ).toEqual({ metadata: { attempt_id: "a1" }, items: [{ price_data: { unit_amount: "500" } }], expand: ["x", "y"] });
  });

  it("refuses another key with 401", async () => {
    expect(await refusal(sdk("sk_test_wrong").balance.retrieve())).toMatchObject({
      name: "StripeAuthenticationError",
      status: 401,
    });
  });

  it("answers a restricted key's request without the permission with 403 naming it, and a rolled key with 401", async () => {
    const key = fake.addKey({ permissions: ["customer_read", "payment_intent_write"] });
    expect(await refusal(sdk(key).paymentIntents.retrieve("pi_nope"))).toMatchObject({ status: 404 });
    const forbidden = await sdk(key)
      .customers.create({ email: "ada@example.com" })
      .catch((e: Error) => e);
    expect(forbidden).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect((forbidden as InstanceType<typeof Stripe.errors.StripeError>).statusCode).toBe(403);
    expect((forbidden as Error).message).toMatch(
      new RegExp(
        `^The provided key 'rk_test_\\*+[0-9a-f]{4}' does not have the required permissions for this endpoint on account '${fake.stripeAccountId}'\\. Having the 'rak_customer_write' permission would allow this request to continue\\.$`,
      ),
    );
    fake.revokeKey(key);
    expect(await refusal(sdk(key).paymentIntents.retrieve("pi_nope"))).toMatchObject({
      name: "StripeAuthenticationError",
      status: 401,
    });
  });

  it("answers an unknown id with 404 resource_missing and bad parameters with 400", async () => {
    expect(await refusal(sdk().paymentIntents.retrieve("pi_nope"))).toMatchObject({
      name: "StripeInvalidRequestError",
      status: 404,
      code: "resource_missing",
    });
    expect(await refusal(sdk().paymentIntents.create({ currency: "usd" } as never))).toMatchObject({
      status: 400,
      code: "parameter_missing",
      param: "amount",
    });
    expect(await refusal(sdk().paymentIntents.create({ amount: "12.5" as never, currency: "usd" }))).toMatchObject({
      status: 400,
      code: "parameter_invalid_integer",
    });
    expect(
      await refusal(sdk().subscriptions.create({ customer: "cus_nope", items: [{ price: "price_x" }] })),
    ).toMatchObject({ status: 400, code: "resource_missing", param: "customer" });
  });

  it("answers a repeated Idempotency-Key with the first answer, and refuses it for other parameters", async () => {
    const first = await sdk().paymentIntents.create({ amount: 900, currency: "eur" }, { idempotencyKey: "k-1" });
    const again = await sdk().paymentIntents.create({ amount: 900, currency: "eur" }, { idempotencyKey: "k-1" });
    expect(again.id).toBe(first.id);
    expect(first.id).toMatch(/^pi_/);
    expect(first).toMatchObject({
      object: "payment_intent",
      amount: 900,
      currency: "eur",
      status: "requires_payment_method",
    });
    expect(
      await refusal(sdk().paymentIntents.create({ amount: 901, currency: "eur" }, { idempotencyKey: "k-1" })),
    ).toMatchObject({ name: "StripeIdempotencyError", status: 400 });
  });

  it("declines, asks for 3-D Secure, and signs webhooks the SDK verifies", async () => {
    const pi = await sdk().paymentIntents.create({ amount: 1200, currency: "usd" });
    expect(fake.pay(pi.id, "declined")).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds" },
    });
    fake.pay(pi.id, "requires_action");
    expect((await sdk().paymentIntents.retrieve(pi.id)).status).toBe("requires_action");
    fake.completeAction(pi.id, true);
    const paid = await sdk().paymentIntents.retrieve(pi.id);
    expect(paid).toMatchObject({ status: "succeeded", amount_received: 1200 });
    const hook = fake.webhook("payment_intent.succeeded", paid as never);
    const event = sdk().webhooks.constructEvent(hook.body, hook.headers["stripe-signature"]!, fake.webhookSecret);
    expect(event).toMatchObject({ id: hook.id, object: "event", type: "payment_intent.succeeded", livemode: false });
    expect(event.api_version).toBe(Stripe.API_VERSION);
  });
  it("sets and clears cancel_at_period_end and pause_collection, and refuses changes to a canceled subscription", async () => {
    const stripe = sdk();
    const customer = await stripe.customers.create({ email: "ada@example.com" });
    await stripe.products.create({ id: "prod_fake_test", name: "Monthly" });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "usd",
            product: "prod_fake_test",
            unit_amount: 700,
            recurring: { interval: "month" },
          },
        },
      ],
      trial_period_days: 7,
      payment_behavior: "default_incomplete",
      expand: ["latest_invoice.confirmation_secret"],
    });
    expect(sub).toMatchObject({ object: "subscription", status: "trialing", cancel_at_period_end: false });
    expect(sub.items.data[0]!.current_period_end - sub.items.data[0]!.current_period_start).toBe(7 * 86_400);
    expect((await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })).cancel_at_period_end).toBe(true);
    const paused = await stripe.subscriptions.update(sub.id, { pause_collection: { behavior: "void" } });
    expect(paused.pause_collection).toEqual({ behavior: "void", resumes_at: null });
    expect((await stripe.subscriptions.update(sub.id, { pause_collection: "" })).pause_collection).toBeNull();
    expect(
      await refusal(stripe.subscriptions.update(sub.id, { pause_collection: { behavior: "later" as "void" } })),
    ).toMatchObject({ status: 400, param: "pause_collection[behavior]" });
    expect((await stripe.subscriptions.cancel(sub.id)).status).toBe("canceled");
    expect(await refusal(stripe.subscriptions.update(sub.id, { cancel_at_period_end: false }))).toMatchObject({
      status: 400,
    });
  });
});
