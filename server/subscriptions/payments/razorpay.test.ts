import { describe, expect, it } from "vitest";

import { razorpayAdapterStandIn } from "../../testing/razorpay-adapter";
import type { PaymentIntent } from "./adapter";
import { orderPaymentSignature, razorpayHmac, signatureMatches } from "./razorpay";
import { razorpayEventDetails } from "./razorpay-events";

function setup() {
  const { fx, adapter, creds } = razorpayAdapterStandIn();
  return { fx, adapter, creds };
}

const intent = (over: Partial<PaymentIntent> = {}): PaymentIntent => ({
  accountId: 7,
  attemptId: "0f9c2b8e-3f5a-4c1d-9a7e-2b6d8c4e1a10",
  amountCents: 49900,
  currency: "INR",
  recurring: false,
  plan: { id: 3, title: "Monthly" },
  subscriber: { id: 1, name: "Ada", email: "ada@example.com", phone: null },
  ...over,
});

/** Razorpay's own sample payload (docs: Payments webhook events, payment.captured), trimmed of the card. */
const DOCUMENTED_CAPTURED = JSON.stringify({
  account_id: "acc_BFQ7uQEaa7j2z7",
  contains: ["payment"],
  created_at: 1691735748,
  entity: "event",
  event: "payment.captured",
  payload: {
    payment: {
      entity: {
        acquirer_data: { auth_code: "828553", rrn: "322206890934" },
        amount: 100,
        amount_refunded: 0,
        amount_transferred: 0,
        bank: null,
        captured: true,
        card_id: "card_DESp9fNnu0RoNc",
        contact: "+11234567890",
        created_at: 1567674797,
        currency: "SGD",
        description: null,
        email: "john.smith@example.com",
        entity: "payment",
        error_code: "",
        error_description: "",
        fee: null,
        id: "pay_DESp9bgForNoUd",
        international: false,
        invoice_id: null,
        method: "card",
        notes: [],
        order_id: "order_DESp9bgForNoUe",
        refund_status: null,
        status: "captured",
        tax: null,
        vpa: null,
        wallet: null,
      },
    },
  },
});

describe("Razorpay signatures", () => {
  it("matches the official SDK's webhook-signature test vector", () => {
    // razorpay-node test/utils/razorpay-utils.spec.js: validateWebhookSignature.
    const expected = "2fe04e22977002e6c7cb553adab8b460cb9e2a4970d5953cb27a8472752e3bbc";
    expect(razorpayHmac('{"a":1,"b":2,"c":{"d":3}}', "123456")).toBe(expected);
    expect(signatureMatches(expected, razorpayHmac('{"a":1,"b":2,"c":{"d":3}}', "123456"))).toBe(true);
    expect(signatureMatches("sdfafds", expected)).toBe(false);
    expect(signatureMatches(expected.toUpperCase(), expected)).toBe(true);
    expect(signatureMatches(undefined, expected)).toBe(false);
    expect(signatureMatches(`${expected}00`, expected)).toBe(false);
  });

  it("signs order|payment for one-time payments", () => {
    const sig = orderPaymentSignature("order_A", "pay_B", "s3cret");
    expect(sig).toBe(razorpayHmac("order_A|pay_B", "s3cret"));
    expect(sig).not.toBe(razorpayHmac("pay_B|order_A", "s3cret"));
  });
});

describe("preparePayment", () => {
  it("creates an order in subunits with the attempt as receipt and in notes", async () => {
    const { fx, adapter, creds } = setup();
    const prepared = await adapter.preparePayment(creds, intent());
    expect(prepared.externalReferenceId).toMatch(/^order_/);
    expect(prepared.clientOptions).toEqual({
      key: fx.keyId,
      order_id: prepared.externalReferenceId,
      amount: 49900,
      currency: "INR",
    });
    expect(JSON.stringify(prepared.clientOptions)).not.toContain(fx.keySecret);
    const call = fx.calls.at(-1)!;
    expect(call).toMatchObject({ method: "POST", path: "/v1/orders" });
    expect(call.body).toEqual({
      amount: 49900,
      currency: "INR",
      receipt: intent().attemptId,
      notes: { attempt_id: intent().attemptId, account_id: "7" },
    });
  });

  it("refuses without credentials, with wrong keys, and passes Razorpay's refusal on", async () => {
    const { adapter, creds } = setup();
    await expect(adapter.preparePayment(null, intent())).rejects.toMatchObject({ kind: "invalid" });
    await expect(adapter.preparePayment({ ...creds, enabled: false }, intent())).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(adapter.preparePayment({ ...creds, secret: "wrong" }, intent())).rejects.toMatchObject({
      kind: "unavailable",
    });
    await expect(adapter.preparePayment(creds, intent({ amountCents: 50 }))).rejects.toThrow(/at ?least/);
  });

  it("creates a Razorpay subscription on the plan's razorpay_plan_id for recurring plans", async () => {
    const { fx, adapter, creds } = setup();
    await expect(adapter.preparePayment(creds, intent({ recurring: true }))).rejects.toThrow(/razorpay_plan_id/);
    const prepared = await adapter.preparePayment(
      creds,
      intent({
        recurring: true,
        plan: { id: 3, title: "M", metadata: { razorpay_plan_id: "plan_M1", razorpay_total_count: 24 } },
      }),
    );
    expect(prepared.externalReferenceId).toMatch(/^sub_/);
    expect(fx.calls.at(-1)).toMatchObject({
      path: "/v1/subscriptions",
      body: { plan_id: "plan_M1", total_count: 24, quantity: 1 },
    });
  });
});

describe("verifyPayment", () => {
  async function paidOrder(status: "captured" | "authorized" | "failed" = "captured") {
    const s = setup();
    const prepared = await s.adapter.preparePayment(s.creds, intent());
    const paid = s.fx.pay({ orderId: prepared.externalReferenceId!, status });
    return { ...s, orderId: prepared.externalReferenceId!, paid };
  }

  it("accepts Checkout's signature and reports the payment's state", async () => {
    for (const [status, expected] of [
      ["captured", "captured"],
      ["authorized", "authorized"],
      ["failed", "failed"],
    ] as const) {
      const { adapter, creds, orderId, paid } = await paidOrder(status);
      const verified = await adapter.verifyPayment(creds, intent(), {
        paymentToken: paid.checkout.razorpay_payment_id,
        externalReferenceId: orderId,
        extra: { razorpay_signature: paid.checkout.razorpay_signature },
      });
      expect(verified.status).toBe(expected);
      expect(verified.externalPaymentId).toBe(paid.checkout.razorpay_payment_id);
      expect(verified.externalOrderId).toBe(orderId);
      if (expected === "failed") expect(verified.reason).toMatch(/insufficient funds/);
    }
  });

  it("takes the signature as payment.signature too", async () => {
    const { adapter, creds, orderId, paid } = await paidOrder();
    const verified = await adapter.verifyPayment(creds, intent(), {
      paymentToken: paid.checkout.razorpay_payment_id,
      externalReferenceId: orderId,
      extra: { signature: paid.checkout.razorpay_signature },
    });
    expect(verified.status).toBe("captured");
  });

  it("refuses a bad or missing signature, a signature by another key, and a payment of another order", async () => {
    const { fx, adapter, creds, orderId, paid } = await paidOrder();
    const proof = (extra: Record<string, unknown>, paymentToken = paid.checkout.razorpay_payment_id) => ({
      paymentToken,
      externalReferenceId: orderId,
      extra,
    });
    const flipped = paid.checkout.razorpay_signature.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect((await adapter.verifyPayment(creds, intent(), proof({ razorpay_signature: flipped }))).status).toBe(
      "failed",
    );
    expect((await adapter.verifyPayment(creds, intent(), proof({}))).reason).toMatch(/razorpay_signature/);
    expect(
      (
        await adapter.verifyPayment(
          creds,
          intent(),
          proof({ razorpay_signature: orderPaymentSignature(orderId, paid.checkout.razorpay_payment_id, "other-key") }),
        )
      ).status,
    ).toBe("failed");
    // A genuine payment of another order: its own signature does not sign this order.
    const other = fx.pay({
      orderId: (await adapter.preparePayment(creds, intent())).externalReferenceId!,
      status: "captured",
    });
    const wrongOrder = await adapter.verifyPayment(
      creds,
      intent(),
      proof({ razorpay_signature: other.checkout.razorpay_signature }, other.checkout.razorpay_payment_id),
    );
    expect(wrongOrder.status).toBe("failed");
    // Even signed for this order, a payment Razorpay reports on another order is refused.
    const forged = await adapter.verifyPayment(
      creds,
      intent(),
      proof(
        { razorpay_signature: orderPaymentSignature(orderId, other.checkout.razorpay_payment_id, creds.secret) },
        other.checkout.razorpay_payment_id,
      ),
    );
    expect(forged).toMatchObject({ status: "failed", reason: "The payment is not for this order." });
  });

  it("refuses a payment of another amount or currency than the subscription's", async () => {
    const { fx, adapter, creds } = setup();
    const orderId = (await adapter.preparePayment(creds, intent())).externalReferenceId!;
    const cheap = fx.pay({ orderId, amount: 100 });
    const verified = await adapter.verifyPayment(creds, intent(), {
      paymentToken: cheap.checkout.razorpay_payment_id,
      externalReferenceId: orderId,
      extra: { razorpay_signature: cheap.checkout.razorpay_signature },
    });
    expect(verified.status).toBe("failed");
    expect(verified.reason).toMatch(/amount/);
    const usd = fx.pay({ orderId, currency: "USD" });
    expect(
      (
        await adapter.verifyPayment(creds, intent(), {
          paymentToken: usd.checkout.razorpay_payment_id,
          externalReferenceId: orderId,
          extra: { razorpay_signature: usd.checkout.razorpay_signature },
        })
      ).reason,
    ).toMatch(/currency/);
  });

  it("refuses an unknown payment and a payment id that is not Razorpay's", async () => {
    const { adapter, creds, orderId } = await paidOrder();
    const ghost = "pay_Ghost0000000";
    expect(
      (
        await adapter.verifyPayment(creds, intent(), {
          paymentToken: ghost,
          externalReferenceId: orderId,
          extra: { razorpay_signature: orderPaymentSignature(orderId, ghost, creds.secret) },
        })
      ).reason,
    ).toMatch(/no such payment/);
    expect(
      (
        await adapter.verifyPayment(creds, intent(), {
          paymentToken: "../orders",
          externalReferenceId: orderId,
          extra: { razorpay_signature: "00" },
        })
      ).status,
    ).toBe("failed");
  });

  it("verifies a subscription's payment by payment_id|subscription_id", async () => {
    const { fx, adapter, creds } = setup();
    const recurring = intent({
      recurring: true,
      plan: { id: 3, title: "M", metadata: { razorpay_plan_id: "plan_M1" } },
    });
    const subscriptionId = (await adapter.preparePayment(creds, recurring)).externalReferenceId!;
    const paid = fx.pay({ subscriptionId, amount: 49900 });
    const proof = {
      paymentToken: paid.checkout.razorpay_payment_id,
      externalReferenceId: subscriptionId,
      extra: { razorpay_signature: paid.checkout.razorpay_signature },
    };
    expect((await adapter.verifyPayment(creds, recurring, proof)).status).toBe("captured");
    // The one-time formula does not verify a subscription's payment.
    expect((await adapter.verifyPayment(creds, intent(), proof)).status).toBe("failed");
  });
});

describe("webhooks", () => {
  const request = (body: string, headers: Record<string, string>) => ({ rawBody: body, headers: new Headers(headers) });

  it("authorizes exactly the body Razorpay signed with the webhook secret", () => {
    const { fx, adapter, creds } = setup();
    const hook = fx.webhook("payment.captured", { payment: { id: "pay_X", entity: "payment" } });
    expect(adapter.webhookRequestAuthorized(creds, request(hook.body, hook.headers))).toBe(true);
    const tampered = hook.body.replace('"pay_X"', '"pay_Y"');
    expect(adapter.webhookRequestAuthorized(creds, request(tampered, hook.headers))).toBe(false);
    expect(adapter.webhookRequestAuthorized(creds, request(`${hook.body} `, hook.headers))).toBe(false);
    const { "x-razorpay-signature": _dropped, ...unsigned } = hook.headers;
    expect(adapter.webhookRequestAuthorized(creds, request(hook.body, unsigned))).toBe(false);
    expect(
      adapter.webhookRequestAuthorized({ ...creds, webhook_secret: "other" }, request(hook.body, hook.headers)),
    ).toBe(false);
    expect(adapter.webhookRequestAuthorized({ ...creds, webhook_secret: null }, request(hook.body, hook.headers))).toBe(
      false,
    );
    // Signed with the key secret instead of the webhook secret: refused.
    const withKey = { ...hook.headers, "x-razorpay-signature": razorpayHmac(hook.body, creds.secret) };
    expect(adapter.webhookRequestAuthorized(creds, request(hook.body, withKey))).toBe(false);
  });

  it("maps the spec's example events to jobs", () => {
    const { adapter } = setup();
    expect(adapter.webhookEventTypeMapping()).toEqual({
      "payment.authorized": "one_time_subscription_charged",
      "payment.captured": "one_time_subscription_charged",
      "subscription.charged": "recurring_subscription_charged",
      "subscription.pending": "recurring_subscription_payment_failed",
      "subscription.halted": "recurring_subscription_cancelled",
      "subscription.cancelled": "recurring_subscription_cancelled",
      "subscription.updated": "recurring_subscription_payment_method_updated",
      "subscription.paused": "recurring_subscription_updated",
      "subscription.resumed": "recurring_subscription_updated",
      "refund.processed": "payment_refunded",
      "payment.dispute.created": "payment_disputed",
      "payment.dispute.under_review": "payment_disputed",
      "payment.dispute.action_required": "payment_disputed",
      "payment.dispute.won": "payment_disputed",
      "payment.dispute.lost": "payment_disputed",
    });
  });

  it("reads the details of Razorpay's documented payment.captured payload", () => {
    const details = razorpayEventDetails(request(DOCUMENTED_CAPTURED, { "x-razorpay-event-id": "KcJ3sUiPyFjUzM" }));
    expect(details).toEqual({
      eventId: "KcJ3sUiPyFjUzM",
      event: "payment.captured",
      externalPaymentId: "pay_DESp9bgForNoUd",
      externalOrderId: "order_DESp9bgForNoUe",
      externalSubscriptionId: null,
      amountCents: 100,
      currency: "SGD",
      notes: {},
      status: "captured",
      recurring: false,
      paymentMethod: null,
      refund: null,
      dispute: null,
      occurredAt: new Date(1691735748 * 1000),
      gatewaySubscription: null,
      email: "john.smith@example.com",
      contact: "+11234567890",
      feeCents: null,
      feeCurrency: null,
    });
    // Without the event-id header: a digest of the body, the same for the same delivery.
    const a = razorpayEventDetails(request(DOCUMENTED_CAPTURED, {}));
    expect(a.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(razorpayEventDetails(request(DOCUMENTED_CAPTURED, {})).eventId).toBe(a.eventId);
  });

  it("reads subscription.charged with its subscription and payment", () => {
    const { fx } = setup();
    const hook = fx.webhook("subscription.charged", {
      subscription: { id: "sub_A", entity: "subscription", status: "active", notes: { attempt_id: "x" } },
      payment: fx.pay({ subscriptionId: "sub_A", amount: 49900 }).payment,
    });
    const details = razorpayEventDetails(request(hook.body, hook.headers));
    expect(details).toMatchObject({
      event: "subscription.charged",
      externalSubscriptionId: "sub_A",
      amountCents: 49900,
      status: "active",
      recurring: true,
      notes: { attempt_id: "x" },
    });
  });

  it("refuses bodies that are not Razorpay events", () => {
    for (const body of ["", "[]", "null", "{", '{"event":"payment.captured"}', '{"entity":"event"}'])
      expect(() => razorpayEventDetails(request(body, {}))).toThrow(/Razorpay|JSON/);
  });
});

describe("beforeExitOnSubscriptionAbsence", () => {
  it("refunds a captured payment in full, once, and cancels a gateway subscription", async () => {
    const { fx, adapter, creds } = setup();
    const orderId = (await adapter.preparePayment(creds, intent())).externalReferenceId!;
    const { payment } = fx.pay({ orderId });
    const details = razorpayEventDetails(
      (({ body, headers }) => ({ rawBody: body, headers: new Headers(headers) }))(
        fx.webhook("payment.captured", { payment }),
      ),
    );
    await adapter.beforeExitOnSubscriptionAbsence!(creds, details);
    expect(fx.refunds).toHaveLength(1);
    expect(fx.refunds[0]).toMatchObject({ payment_id: payment.id, amount: 49900 });
    // A repeated run (after a crash) finds it refunded: no error, no second refund.
    await adapter.beforeExitOnSubscriptionAbsence!(creds, details);
    expect(fx.refunds).toHaveLength(1);

    const recurring = intent({
      recurring: true,
      plan: { id: 3, title: "M", metadata: { razorpay_plan_id: "plan_M1" } },
    });
    const subscriptionId = (await adapter.preparePayment(creds, recurring)).externalReferenceId!;
    await adapter.beforeExitOnSubscriptionAbsence!(creds, {
      ...details,
      externalPaymentId: null,
      externalSubscriptionId: subscriptionId,
    });
    expect(fx.subscriptions.get(subscriptionId)!.status).toBe("cancelled");
  });

  it("does not refund a payment that is only authorized (Razorpay returns those itself)", async () => {
    const { fx, adapter, creds } = setup();
    const orderId = (await adapter.preparePayment(creds, intent())).externalReferenceId!;
    const { payment } = fx.pay({ orderId, status: "authorized" });
    const hook = fx.webhook("payment.authorized", { payment });
    await adapter.beforeExitOnSubscriptionAbsence!(
      creds,
      razorpayEventDetails({ rawBody: hook.body, headers: new Headers(hook.headers) }),
    );
    expect(fx.refunds).toHaveLength(0);
  });
});

describe("the card of a subscription (Razorpay's hosted page)", () => {
  async function subscription(fx: ReturnType<typeof setup>["fx"], status: string) {
    const auth = `Basic ${Buffer.from(`${fx.keyId}:${fx.keySecret}`).toString("base64")}`;
    const res = await fx.handle("https://api.razorpay.test/v1/subscriptions", {
      method: "POST",
      headers: { authorization: auth },
      body: JSON.stringify({ plan_id: "plan_A", total_count: 12 }),
    });
    const sub = (await res.json()) as { id: string; short_url: string };
    fx.subscriptions.get(sub.id)!.status = status;
    return sub;
  }
  const request = (gatewayReference: string | null) => ({
    accountId: 7,
    subscriptionId: 1,
    gatewayReference,
    currentPaymentToken: "pay_A",
  });

  it("answers the subscription's short_url, fetched with GET /v1/subscriptions/<id>", async () => {
    const { fx, adapter, creds } = setup();
    const sub = await subscription(fx, "active");
    await expect(adapter.hostedPaymentMethodUpdate!(creds, request(sub.id))).resolves.toEqual({ url: sub.short_url });
    expect(fx.calls.at(-1)).toEqual({ method: "GET", path: `/v1/subscriptions/${sub.id}`, body: null });
  });

  it("refuses a subscription Razorpay no longer charges, none at all, and no credentials", async () => {
    const { fx, adapter, creds } = setup();
    const done = await subscription(fx, "completed");
    await expect(adapter.hostedPaymentMethodUpdate!(creds, request(done.id))).rejects.toMatchObject({
      kind: "declined",
      message: "Razorpay reports this subscription as completed: its card cannot change.",
    });
    await expect(adapter.hostedPaymentMethodUpdate!(creds, request(null))).rejects.toMatchObject({ kind: "declined" });
    await expect(adapter.hostedPaymentMethodUpdate!(creds, request("sub_Unknown1"))).rejects.toMatchObject({
      kind: "declined",
      message: "The id provided does not exist",
    });
    await expect(adapter.hostedPaymentMethodUpdate!(null, request(done.id))).rejects.toMatchObject({ kind: "invalid" });
  });

  it("reads the new card from subscription.updated: its token and label", () => {
    const { fx } = setup();
    const { tokenId, webhook } = fx.changeCard({ subscriptionId: "sub_A", network: "MasterCard", last4: "5558" });
    const details = razorpayEventDetails({ rawBody: webhook.body, headers: new Headers(webhook.headers) });
    expect(details).toMatchObject({
      event: "subscription.updated",
      externalSubscriptionId: "sub_A",
      paymentMethod: { token: tokenId, label: "MasterCard ending 5558" },
    });
  });
});
