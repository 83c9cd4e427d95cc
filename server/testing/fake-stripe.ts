/**
 * A local fake of Stripe's API for tests (no network): a node:http server on 127.0.0.1 that the
 * official `stripe` SDK reaches through its `host`/`port`/`protocol` options. It speaks the parts
 * of the API the Stripe adapter uses (fake-stripe-routes.ts), in Stripe's documented shapes
 * (fake-stripe-state.ts): form-encoded bodies in bracket notation as the SDK sends them
 * (`metadata[attempt_id]=…`, `items[0][price_data][currency]=usd`, `expand[0]=…`), the secret key as a
 * Bearer token (401 otherwise; restricted keys made by `addKey` get 403 where they lack a
 * permission, fake-stripe-keys.ts), `Idempotency-Key` honoured (the same key answers the same
 * response; other parameters with it are an `idempotency_error`), Stripe's error shape.
 *
 * Tests drive what happens in the reader's browser and on Stripe's side through its controls
 * (`pay`, `completeAction`, `confirmSetupIntent`, `renew`), and get the webhooks Stripe would send
 * (`webhook`), signed with the SDK's own `webhooks.generateTestHeaderString`.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import Stripe from "stripe";

import { ACCOUNT_ROUTES } from "./fake-stripe-account-routes";
import { browserRequest } from "./fake-stripe-browser";
import { fakeStripeKeys, type FakeStripePermission } from "./fake-stripe-keys";
import { addInterval, renderSubscription, ROUTES } from "./fake-stripe-routes";
import { FakeStripeError, stripeState, type Obj, type StripeState } from "./fake-stripe-state";
import { SUBSCRIPTION_CHANGE_ROUTES } from "./fake-stripe-switch-routes";
import { fakeStripeTax } from "./fake-stripe-tax-routes";

type Call = { method: string; path: string; params: Obj; idempotencyKey: string | null; stripeVersion: string | null };
type Signed = { body: string; headers: Record<string, string> };

/** Decode `a[b][0][c]=x&…` (the SDK's qs encoding) into nested objects and arrays, without prototypes. */
export function decodeStripeForm(text: string): Obj {
  const root: Obj = Object.create(null) as Obj;
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node: Obj = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        if (typeof node[part] !== "object" || node[part] === null) node[part] = Object.create(null) as Obj;
        node = node[part] as Obj;
      }
    });
  }
  return toArrays(root) as Obj;
}

function toArrays(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Obj).map(([k, v]) => [k, toArrays(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k)))
    return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  const out = Object.create(null) as Obj;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** The fake's keys: random unless given (a browser test's server is configured before the fake starts). */
type FakeStripeKeys = { secretKey: string; publishableKey: string; webhookSecret: string };

/**
 * Start the fake on an ephemeral port (or `port`). `clock` (ms) dates objects and webhooks;
 * default Date.now. Close it with `close()`.
 */
// eslint-disable-next-line max-lines-per-function -- a fake gateway: one closure over its state; each handler in it is short
export async function startFakeStripe(options: { clock?: () => number; port?: number; keys?: FakeStripeKeys } = {}) {
  const clock = options.clock ?? (() => Date.now());
  const stripeAccountId = `acct_${randomBytes(8).toString("hex")}`;
  const keys = fakeStripeKeys(stripeAccountId);
  const secretKey = keys.add({ key: options.keys?.secretKey });
  const publishableKey = options.keys?.publishableKey ?? `pk_test_${randomBytes(24).toString("hex")}`;
  const webhookSecret = options.keys?.webhookSecret ?? `whsec_${randomBytes(24).toString("hex")}`;
  let state: StripeState = stripeState(clock);
  const calls: Call[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const tax = fakeStripeTax();

  function answer(res: http.ServerResponse, status: number, body: string, replayed = false) {
    res.writeHead(status, {
      "content-type": "application/json",
      "request-id": `req_${randomBytes(8).toString("hex")}`,
      ...(replayed ? { "idempotent-replayed": "true" } : {}),
    });
    res.end(body);
  }

  function handle(method: string, path: string, params: Obj): { status: number; body: Obj } {
    if (failures.count > 0) {
      failures.count--;
      return failures.status === 429
        ? {
            status: 429,
            body: { error: { type: "invalid_request_error", code: "rate_limit", message: "Too many requests." } },
          }
        : {
            status: failures.status,
            body: { error: { type: "api_error", message: "An unknown error occurred on Stripe's end." } },
          };
    }
    for (const r of [...SUBSCRIPTION_CHANGE_ROUTES, ...ROUTES, ...ACCOUNT_ROUTES, ...tax.routes]) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(path);
      if (!m) continue;
      try {
        return { status: 200, body: r.handle(state, params, m[1] ?? "") };
      } catch (error) {
        if (error instanceof FakeStripeError) return { status: error.status, body: error.body() };
        throw error;
      }
    }
    return {
      status: 404,
      body: {
        error: {
          type: "invalid_request_error",
          code: null,
          message: `Unrecognized request URL (${method}: ${path}).`,
        },
      },
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const method = req.method ?? "GET";
      const auth = req.headers.authorization ?? "";
      // Stripe.js's side (the fake script and its calls) and the test controls, before the API's own.
      const browser = {
        state: () => state,
        publishableKey,
        secretKey,
        renew: (id: string, outcome: "paid" | "failed") => fake.renew(id, outcome),
        webhook,
      };
      void browserRequest(browser, method, url, auth, Buffer.concat(chunks).toString()).then(
        (reply) => {
          if (!reply) return apiRequest(req, res, url, method, auth, chunks);
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body);
        },
        () => answer(res, 500, JSON.stringify({ error: { type: "api_error", message: "The fake failed." } })),
      );
    });
  });

  function apiRequest(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    method: string,
    auth: string,
    chunks: Buffer[],
  ) {
    const refused = keys.refusal(auth, method, url.pathname);
    if (refused) return answer(res, refused.status, JSON.stringify(refused.body));
    const text = method === "GET" || method === "DELETE" ? url.search.slice(1) : Buffer.concat(chunks).toString();
    const params = decodeStripeForm(text);
    const key = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    calls.push({
      method,
      path: url.pathname,
      params,
      idempotencyKey: key,
      stripeVersion: typeof req.headers["stripe-version"] === "string" ? req.headers["stripe-version"] : null,
    });
    const fingerprint = `${method} ${url.pathname} ${text}`;
    if (key && method === "POST") {
      const seen = idempotent.get(key);
      if (seen) {
        if (seen.fingerprint !== fingerprint)
          return answer(
            res,
            400,
            JSON.stringify({
              error: {
                type: "idempotency_error",
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              },
            }),
          );
        return answer(res, seen.status, seen.body, true);
      }
    }
    const { status, body } = handle(method, url.pathname, params);
    const json = JSON.stringify(body);
    // Stripe keeps the answer of a key unless the request failed on its side (5xx, 429).
    if (key && method === "POST" && status < 500 && status !== 429)
      idempotent.set(key, { fingerprint, status, body: json });
    answer(res, status, json);
  }
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  /** Stripe's event (snapshot payload) for `object`, signed as Stripe signs it (`Stripe-Signature`). */
  function webhook(
    type: string,
    object: Obj,
    opts: { id?: string; previousAttributes?: Obj; secret?: string; timestamp?: number; created?: number } = {},
  ): Signed & { id: string } {
    const id = opts.id ?? state.newId("evt");
    const event = {
      id,
      object: "event",
      api_version: Stripe.API_VERSION,
      created: opts.created ?? state.now(),
      data: { object, ...(opts.previousAttributes ? { previous_attributes: opts.previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    const body = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: opts.secret ?? webhookSecret,
      timestamp: opts.timestamp ?? state.now(),
    });
    return { id, body, headers: { "content-type": "application/json", "stripe-signature": signature } };
  }

  const subscription = (id: string) =>
    renderSubscription(state, state.get(state.subscriptions, "subscription", id), []);
  const invoice = (id: string) => {
    const { payment_intent_id: _pi, ...out } = state.get(state.invoices, "invoice", id);
    return out;
  };

  const fake = {
    url: `http://127.0.0.1:${port}`,
    /** What the SDK needs to reach the fake. */
    sdkOptions: { host: "127.0.0.1", port, protocol: "http" as const },
    secretKey,
    publishableKey,
    webhookSecret,
    stripeAccountId,
    /**
     * Another key of this account: a secret key of `mode` (default test), or, with `permissions`,
     * a restricted key that may do only that (`["payment_intent_write", "price_read"]`).
     */
    addKey: (options: { mode?: "test" | "live"; permissions?: readonly FakeStripePermission[] } = {}) =>
      keys.add(options),
    /** Roll a key: Stripe refuses it from now on (401). */
    revokeKey: (key: string) => keys.revoke(key),
    get state() {
      return state;
    },
    calls,
    /** Forget every object, idempotency key and call: a new Stripe account with the same keys. */
    reset() {
      state = stripeState(clock);
      idempotent.clear();
      calls.length = 0;
      failures = { count: 0, status: 500 };
      tax.reset();
    },
    /** The next `count` requests fail with `status` (500: api_error, 429: rate limited). */
    failNext(count: number, status = 500) {
      failures = { count, status };
    },
    /** Stripe Tax: the rates by place and whether it is active (fake-stripe-tax-routes.ts). */
    tax: {
      setRates: (table: Parameters<typeof tax.setRates>[0]) => tax.setRates(table),
      setActive: (on: boolean) => tax.setActive(on),
    },
    pay: (...args: Parameters<StripeState["pay"]>) => state.pay(...args),
    completeAction: (id: string, passed: boolean) => state.completeAction(id, passed),
    /** The reader confirms a SetupIntent with a new card (Stripe.js confirmSetup). */
    confirmSetupIntent(id: string, card: { brand?: string; last4?: string } = {}) {
      const si = state.get(state.setupIntents, "setup_intent", id);
      const pm = state.createPaymentMethod({ ...card, customer: (si.customer as string | null) ?? null });
      Object.assign(si, { status: "succeeded", payment_method: pm.id });
      return pm;
    },
    /**
     * Stripe's billing cycle: the next period's invoice, charged to the subscription's default
     * payment method. Paid: the items' period moves on; failed: the invoice stays open and the
     * subscription is `past_due` (Stripe retries by itself).
     */
    renew(subscriptionId: string, outcome: "paid" | "failed" = "paid") {
      const sub = state.get(state.subscriptions, "subscription", subscriptionId);
      const item = (sub.items as { data: Obj[] }).data[0]!;
      const price = item.price as { unit_amount: number; recurring: { interval: string; interval_count: number } };
      const start = item.current_period_end as number;
      const end = addInterval(start, price.recurring.interval, price.recurring.interval_count);
      const inv = state.createInvoice(sub, { amount: price.unit_amount, reason: "subscription_cycle", start, end });
      sub.latest_invoice = inv.id;
      Object.assign(item, { current_period_start: start, current_period_end: end });
      const pm = state.paymentMethods.get(sub.default_payment_method as string);
      const piId = inv.payment_intent_id as string;
      state.pay(piId, outcome === "paid" ? "succeeded" : "declined", (pm?.card as Obj | undefined) ?? {});
      if (outcome === "failed") sub.status = "past_due";
      else if (sub.status === "trialing") sub.status = "active";
      return { invoice: invoice(inv.id as string), paymentIntent: state.paymentIntents.get(piId)! };
    },
    subscription,
    invoice,
    webhook,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
