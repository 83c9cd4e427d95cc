/**
 * A stand-in for Razorpay's API in tests, answering in the shapes Razorpay documents (order,
 * subscription, payment and refund entities, `{error: {code, description}}` failures), with
 * basic auth on the key id and secret. It keeps its orders, subscriptions and payments in
 * memory; a test "pays" with `pay()`, which also returns what Razorpay Checkout hands the
 * browser (razorpay_payment_id, razorpay_order_id, razorpay_signature) and builds the webhook
 * bodies Razorpay would send (`webhook()`), signed with the webhook secret.
 *
 * `handle()` is the API as a function (unit tests pass it as the adapter's fetch); `listen()`
 * serves it on 127.0.0.1 for integration tests (RAZORPAY_API_BASE_URL).
 */
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Entity = Record<string, unknown>;

export type RazorpayFixture = {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  orders: Map<string, Entity>;
  subscriptions: Map<string, Entity>;
  payments: Map<string, Entity>;
  refunds: Entity[];
  /** Every call: method, path and parsed body. */
  calls: { method: string; path: string; body: Entity | null }[];
  handle: (url: string, init?: { method?: string; headers?: HeadersInit; body?: string }) => Promise<Response>;
  /** A payment on an order (or a subscription) as Checkout makes it. */
  pay: (args: {
    orderId?: string;
    subscriptionId?: string;
    amount?: number;
    currency?: string;
    status?: "captured" | "authorized" | "failed";
    notes?: Entity;
  }) => {
    payment: Entity;
    checkout: {
      razorpay_payment_id: string;
      razorpay_order_id?: string;
      razorpay_subscription_id?: string;
      razorpay_signature: string;
    };
  };
  /**
   * The subscriber changes the card of a subscription on Razorpay's hosted page (its short_url):
   * the `subscription.updated` webhook Razorpay then sends, with the payment entity of the new
   * card's authorisation (`token_id`, `card_id`, `card` {network, last4}).
   */
  changeCard: (args: { subscriptionId: string; network?: string; last4?: string; eventId?: string }) => {
    tokenId: string;
    webhook: { body: string; headers: Record<string, string> };
  };
  /** A webhook as Razorpay sends it: the raw body and its headers. */
  webhook: (
    event: string,
    entities: { payment?: Entity; order?: Entity; subscription?: Entity; refund?: Entity; dispute?: Entity },
    eventId?: string,
  ) => { body: string; headers: Record<string, string> };
  listen: () => Promise<{ url: string; close: () => Promise<void> }>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString("base64url").replace(/[-_]/g, "x")}`;
const now = () => Math.floor(Date.now() / 1000);
const hmac = (payload: string, secret: string) => createHmac("sha256", secret).update(payload).digest("hex");

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
const badRequest = (description: string, field: string | null = null) =>
  json(400, {
    error: {
      code: "BAD_REQUEST_ERROR",
      description,
      source: "business",
      step: "payment_initiation",
      reason: "input_validation_failed",
      metadata: {},
      field,
    },
  });

// eslint-disable-next-line max-lines-per-function -- a fake gateway: one closure over its state; each handler in it is short
export function razorpayFixture(
  keys: { keyId?: string; keySecret?: string; webhookSecret?: string } = {},
): RazorpayFixture {
  const keyId = keys.keyId ?? `rzp_test_${randomBytes(7).toString("hex")}`;
  const keySecret = keys.keySecret ?? randomBytes(12).toString("hex");
  const webhookSecret = keys.webhookSecret ?? randomBytes(12).toString("hex");
  const orders = new Map<string, Entity>();
  const subscriptions = new Map<string, Entity>();
  const payments = new Map<string, Entity>();
  const refunds: Entity[] = [];
  const calls: RazorpayFixture["calls"] = [];

  async function handle(url: string, init: { method?: string; headers?: HeadersInit; body?: string } = {}) {
    const method = (init.method ?? "GET").toUpperCase();
    const path = new URL(url).pathname;
    const body = init.body ? (JSON.parse(init.body) as Entity) : null;
    calls.push({ method, path, body });
    const auth = new Headers(init.headers).get("authorization") ?? "";
    const expected = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`;
    if (auth !== expected)
      return json(401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });

    if (method === "POST" && path === "/v1/orders") {
      if (!body || typeof body.amount !== "number" || !Number.isInteger(body.amount) || body.amount < 100)
        return badRequest("The amount must be atleast INR 1.00", "amount");
      if (typeof body.currency !== "string") return badRequest("The currency field is required.", "currency");
      if (typeof body.receipt === "string" && body.receipt.length > 40)
        return badRequest("receipt: the length must be no more than 40.", "receipt");
      const order = {
        id: id("order"),
        entity: "order",
        amount: body.amount,
        amount_paid: 0,
        amount_due: body.amount,
        currency: body.currency,
        receipt: body.receipt ?? null,
        offer_id: null,
        status: "created",
        attempts: 0,
        notes: body.notes ?? [],
        created_at: now(),
      };
      orders.set(order.id, order);
      return json(200, order);
    }
    if (method === "POST" && path === "/v1/subscriptions") {
      if (!body || typeof body.plan_id !== "string" || !body.plan_id.startsWith("plan_"))
        return badRequest("The id provided does not exist", "plan_id");
      if (typeof body.total_count !== "number") return badRequest("The total count field is required.", "total_count");
      if (body.start_at !== undefined && (typeof body.start_at !== "number" || body.start_at <= now()))
        return badRequest("start_at cannot be lesser than the current time.", "start_at");
      if (body.offer_id !== undefined && typeof body.offer_id !== "string")
        return badRequest("The offer id provided does not exist", "offer_id");
      // With start_at (a trial), Checkout's payment only authorises the card; the first charge is then.
      const startAt = typeof body.start_at === "number" ? body.start_at : now();
      const subscriptionId = id("sub");
      const subscription = {
        id: subscriptionId,
        entity: "subscription",
        plan_id: body.plan_id,
        status: "created",
        current_start: null,
        current_end: null,
        ended_at: null,
        quantity: body.quantity ?? 1,
        notes: body.notes ?? [],
        charge_at: startAt,
        start_at: startAt,
        offer_id: body.offer_id ?? null,
        end_at: null,
        auth_attempts: 0,
        total_count: body.total_count,
        paid_count: 0,
        customer_notify: body.customer_notify !== 0,
        created_at: now(),
        expire_by: null,
        short_url: `https://rzp.io/i/${subscriptionId.slice(4, 12)}`,
        has_scheduled_changes: false,
        change_scheduled_at: null,
        source: "api",
        remaining_count: body.total_count,
      };
      subscriptions.set(subscription.id, subscription);
      return json(200, subscription);
    }
    let m = /^\/v1\/payments\/([^/]+)$/.exec(path);
    if (method === "GET" && m) {
      const payment = payments.get(decodeURIComponent(m[1]!));
      return payment ? json(200, payment) : badRequest("The id provided does not exist");
    }
    m = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path);
    if (method === "POST" && m) {
      const payment = payments.get(decodeURIComponent(m[1]!));
      if (!payment) return badRequest("The id provided does not exist");
      if (payment.status === "refunded") return badRequest("The payment has been fully refunded already");
      if (payment.status !== "captured") return badRequest("Only captured payments can be refunded");
      const already = typeof payment.amount_refunded === "number" ? payment.amount_refunded : 0;
      const amount = typeof body?.amount === "number" ? body.amount : (payment.amount as number) - already;
      if (!Number.isInteger(amount) || amount <= 0) return badRequest("The amount must be a positive integer");
      if (already + amount > (payment.amount as number))
        return badRequest("The refund amount provided is greater than amount captured");
      const refund = {
        id: id("rfnd"),
        entity: "refund",
        amount,
        currency: payment.currency,
        payment_id: payment.id,
        notes: body?.notes ?? [],
        receipt: typeof body?.receipt === "string" ? body.receipt : null,
        acquirer_data: { arn: null },
        created_at: now(),
        batch_id: null,
        status: "processed",
        speed_processed: "normal",
        speed_requested: "normal",
      };
      refunds.push(refund);
      // Razorpay: a partial refund leaves the payment captured (refund_status "partial").
      payment.amount_refunded = already + amount;
      const full = already + amount === payment.amount;
      payment.refund_status = full ? "full" : "partial";
      if (full) payment.status = "refunded";
      return json(200, refund);
    }
    // A plan change at the cycle's end (PATCH, schedule_change_at=cycle_end) and its cancellation.
    m = /^\/v1\/subscriptions\/([^/]+)(\/cancel_scheduled_changes)?$/.exec(path);
    const changed = m && subscriptions.get(decodeURIComponent(m[1]!));
    if (m && changed && ((method === "PATCH" && !m[2]) || (method === "POST" && m[2]))) {
      if (!["authenticated", "active"].includes(changed.status as string))
        return badRequest(`Subscription cannot be updated when it is in ${String(changed.status)} state`);
      if (method === "POST")
        return json(200, Object.assign(changed, { has_scheduled_changes: false, change_scheduled_at: null }));
      if (typeof body?.plan_id !== "string" || !body.plan_id.startsWith("plan_"))
        return badRequest("The id provided does not exist", "plan_id");
      if (body.schedule_change_at !== "cycle_end")
        return badRequest("This stand-in models only schedule_change_at=cycle_end.", "schedule_change_at");
      const at = (changed.current_end as number | null) ?? (changed.charge_at as number);
      return json(200, Object.assign(changed, { has_scheduled_changes: true, change_scheduled_at: at }));
    }
    m = /^\/v1\/subscriptions\/([^/]+)(\/cancel|\/pause|\/resume)?$/.exec(path);
    if (m) {
      const subscription = subscriptions.get(decodeURIComponent(m[1]!));
      if (!subscription) return badRequest("The id provided does not exist");
      if (method === "POST" && m[2]) return subscriptionAction(subscription, m[2], body);
      if (method === "GET" && !m[2]) return json(200, subscription);
    }
    return json(404, {
      error: { code: "BAD_REQUEST_ERROR", description: "The requested URL was not found on the server." },
    });
  }

  /**
   * Cancel (now, or at the cycle's end: the subscription stays active until then), pause (only an
   * active one, now; an authenticated one is cancelled instead, as Razorpay documents) and resume.
   */
  function subscriptionAction(subscription: Entity, action: string, body: Entity | null): Response {
    const status = subscription.status as string;
    if (action === "/cancel") {
      if (["cancelled", "completed", "expired"].includes(status))
        return badRequest("Subscription cannot be cancelled since it is already cancelled");
      if (body?.cancel_at_cycle_end === 1 || body?.cancel_at_cycle_end === true) {
        subscription.end_at = subscription.current_end ?? subscription.charge_at;
        return json(200, subscription);
      }
      Object.assign(subscription, { status: "cancelled", ended_at: now() });
      return json(200, subscription);
    }
    if (action === "/pause") {
      if (body?.pause_at !== "now") return badRequest("pause_at must be now", "pause_at");
      if (status === "authenticated") {
        Object.assign(subscription, { status: "cancelled", ended_at: now() });
        return json(200, subscription);
      }
      if (status !== "active") return badRequest(`Subscription is not in active state`);
      Object.assign(subscription, { status: "paused", paused_at: now(), pause_initiated_by: "self", charge_at: null });
      return json(200, subscription);
    }
    if (body?.resume_at !== "now") return badRequest("resume_at must be now", "resume_at");
    if (status !== "paused") return badRequest(`Subscription is not in paused state`);
    Object.assign(subscription, { status: "active", pause_initiated_by: null, charge_at: now() });
    return json(200, subscription);
  }

  const fixture: RazorpayFixture = {
    keyId,
    keySecret,
    webhookSecret,
    orders,
    subscriptions,
    payments,
    refunds,
    calls,
    handle,
    pay({ orderId, subscriptionId, amount, currency, status = "captured", notes }) {
      const order = orderId ? orders.get(orderId) : undefined;
      const paymentId = id("pay");
      const payment: Entity = {
        id: paymentId,
        entity: "payment",
        amount: amount ?? order?.amount ?? 50000,
        currency: currency ?? order?.currency ?? "INR",
        status,
        order_id: orderId ?? id("order"),
        invoice_id: subscriptionId ? id("inv") : null,
        international: false,
        method: "card",
        amount_refunded: 0,
        refund_status: null,
        captured: status === "captured",
        description: null,
        card_id: "card_DESp9fNnu0RoNc",
        bank: null,
        wallet: null,
        vpa: null,
        email: "gaurav.kumar@example.com",
        contact: "+919000090000",
        notes: notes ?? [],
        fee: status === "captured" ? 1180 : null,
        tax: status === "captured" ? 180 : null,
        error_code: status === "failed" ? "BAD_REQUEST_ERROR" : null,
        error_description: status === "failed" ? "Payment failed due to insufficient funds" : null,
        error_source: null,
        error_step: null,
        error_reason: null,
        acquirer_data: { auth_code: "828553" },
        created_at: now(),
      };
      payments.set(paymentId, payment);
      if (order && status === "captured") {
        order.status = "paid";
        order.amount_paid = payment.amount;
        order.amount_due = 0;
      }
      const signature = subscriptionId
        ? hmac(`${paymentId}|${subscriptionId}`, keySecret)
        : hmac(`${payment.order_id as string}|${paymentId}`, keySecret);
      return {
        payment,
        checkout: subscriptionId
          ? { razorpay_payment_id: paymentId, razorpay_subscription_id: subscriptionId, razorpay_signature: signature }
          : {
              razorpay_payment_id: paymentId,
              razorpay_order_id: payment.order_id as string,
              razorpay_signature: signature,
            },
      };
    },
    changeCard({ subscriptionId, network = "Visa", last4 = "1111", eventId }) {
      const subscription = subscriptions.get(subscriptionId) ?? {
        id: subscriptionId,
        entity: "subscription",
        status: "active",
        notes: [],
      };
      const tokenId = id("token");
      const cardId = id("card");
      const paymentId = id("pay");
      const payment: Entity = {
        id: paymentId,
        entity: "payment",
        amount: 500,
        currency: "INR",
        status: "refunded",
        order_id: id("order"),
        invoice_id: null,
        international: false,
        method: "card",
        card_id: cardId,
        card: {
          id: cardId,
          entity: "card",
          name: "Gaurav Kumar",
          last4,
          network,
          type: "credit",
          issuer: null,
          international: false,
          emi: false,
        },
        token_id: tokenId,
        notes: [],
        created_at: now(),
      };
      payments.set(paymentId, payment);
      return { tokenId, webhook: fixture.webhook("subscription.updated", { subscription, payment }, eventId) };
    },
    webhook(event, entities, eventId = `evt_${randomBytes(7).toString("hex")}`) {
      const payload: Entity = {};
      for (const [name, entity] of Object.entries(entities)) if (entity) payload[name] = { entity };
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_BFQ7uQEaa7j2z7",
        event,
        contains: Object.keys(payload),
        payload,
        created_at: now(),
      });
      return {
        body,
        headers: {
          "content-type": "application/json",
          "x-razorpay-signature": hmac(body, webhookSecret),
          "x-razorpay-event-id": eventId,
        },
      };
    },
    async listen() {
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
          const text = Buffer.concat(chunks).toString("utf8");
          void handle(`http://fixture${req.url ?? "/"}`, {
            method: req.method,
            headers,
            body: text === "" ? undefined : text,
          }).then(async (response) => {
            res.writeHead(response.status, { "content-type": "application/json" });
            res.end(await response.text());
          });
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
  };
  return fixture;
}
