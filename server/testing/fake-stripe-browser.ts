/**
 * The fake Stripe server's side for a real browser (fake-stripe.ts hands it each request first):
 *
 * - `GET /v3/`: the fake Stripe.js (fake-stripe-js.ts, bundled here on first use), what a test
 *   server's STRIPE_JS_URL names instead of https://js.stripe.com/v3/;
 * - `POST /js/payment_intents/:id/confirm` and `…/authenticate` (JSON, CORS): what that script
 *   calls, authenticated as Stripe.js is, by the publishable key and the PaymentIntent's client
 *   secret. The card decides, by Stripe's test numbers: 4242 4242 4242 4242 succeeds, 4000 0000
 *   0000 0002 is declined (generic_decline), 4000 0027 6000 3184 requires 3-D Secure, which
 *   `authenticate {passed}` completes or fails; any other number is declined as unknown;
 * - `POST /_fake/subscriptions/:id/renew` `{outcome: "paid" | "failed"}` (the secret key as a
 *   Bearer token): Stripe's billing cycle (`renew`) and the webhook Stripe sends for it
 *   (`invoice.paid` or `invoice.payment_failed`), signed, for the test to deliver.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

import type { Obj, StripeState } from "./fake-stripe-state";

type Reply = { status: number; headers: Record<string, string>; body: string };
type BrowserSide = {
  state: () => StripeState;
  publishableKey: string;
  secretKey: string;
  renew: (subscriptionId: string, outcome: "paid" | "failed") => { invoice: Obj; paymentIntent: Obj };
  webhook: (type: string, object: Obj) => { id: string; body: string; headers: Record<string, string> };
};

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600",
};
const TEST_CARDS = new Map<string, { outcome: "succeeded" | "declined" | "requires_action"; brand: string }>([
  ["4242424242424242", { outcome: "succeeded", brand: "visa" }],
  ["4000000000000002", { outcome: "declined", brand: "visa" }],
  ["4000002760003184", { outcome: "requires_action", brand: "visa" }],
]);

let bundled: Promise<string> | null = null;

/** fake-stripe-js.ts as the browser loads it: one minified script. */
function fakeStripeJs(): Promise<string> {
  bundled ??= build({
    entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), "fake-stripe-js.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2018",
    write: false,
    logLevel: "warning",
  }).then((r) => `/* fake Stripe.js for tests (server/testing/fake-stripe-js.ts) */\n${r.outputFiles[0]!.text}`);
  return bundled;
}

const json = (status: number, body: unknown, headers: Record<string, string> = CORS): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const view = (pi: Obj) => ({
  id: pi.id,
  object: "payment_intent",
  status: pi.status,
  amount: pi.amount,
  currency: pi.currency,
  client_secret: pi.client_secret,
  last_payment_error: pi.last_payment_error,
});

function parse(body: string): Obj {
  try {
    const value: unknown = JSON.parse(body || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : {};
  } catch {
    return {};
  }
}

/** The PaymentIntent the browser names, when its publishable key and client secret are right. */
function browserIntent(side: BrowserSide, id: string, params: Obj): { pi: Obj } | { refused: Reply } {
  if (params.key !== side.publishableKey)
    return { refused: json(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } }) };
  const pi = side.state().paymentIntents.get(id);
  if (!pi || params.client_secret !== pi.client_secret)
    return {
      refused: json(404, {
        error: { type: "invalid_request_error", code: "resource_missing", message: `No such payment_intent: '${id}'` },
      }),
    };
  return { pi };
}

function confirm(side: BrowserSide, pi: Obj, params: Obj): Reply {
  const card = (params.card ?? {}) as { number?: unknown };
  const number = typeof card.number === "string" ? card.number : "";
  const test = TEST_CARDS.get(number) ?? { outcome: "declined" as const, brand: "visa" };
  const state = side.state();
  try {
    state.pay(pi.id as string, test.outcome, { brand: test.brand, last4: number.slice(-4) });
  } catch (error) {
    const body = (error as { body?: () => Obj }).body?.();
    return json(400, body ?? { error: { type: "api_error", message: "The payment could not be confirmed." } });
  }
  if (test.outcome === "declined") {
    // Stripe's generic decline for 4000 0000 0000 0002, as Stripe.js answers it (HTTP 402).
    const error = {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    };
    pi.last_payment_error = { ...error, payment_method: null };
    return json(402, { error: { ...error, payment_intent: view(pi) } });
  }
  return json(200, { payment_intent: view(pi) });
}

function authenticate(side: BrowserSide, pi: Obj, params: Obj): Reply {
  if (pi.status !== "requires_action")
    return json(400, {
      error: {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: "Nothing to authenticate.",
      },
    });
  const after = side.state().completeAction(pi.id as string, params.passed === true);
  if (after.status !== "requires_payment_method") return json(200, { payment_intent: view(after) });
  const failure = after.last_payment_error as { code: string; message: string };
  return json(402, {
    error: { type: "invalid_request_error", code: failure.code, message: failure.message, payment_intent: view(after) },
  });
}

/** The fake's answer to a browser's (or a browser test's) request, or null: not one of these paths. */
export async function browserRequest(
  side: BrowserSide,
  method: string,
  url: URL,
  authorization: string,
  body: string,
): Promise<Reply | null> {
  if (method === "GET" && (url.pathname === "/v3/" || url.pathname === "/v3"))
    return {
      status: 200,
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" },
      body: await fakeStripeJs(),
    };
  const js = /^\/js\/payment_intents\/([^/]+)\/(confirm|authenticate)$/.exec(url.pathname);
  if (js) {
    if (method === "OPTIONS") return { status: 204, headers: CORS, body: "" };
    if (method !== "POST") return json(405, { error: { type: "invalid_request_error", message: "POST only." } });
    const params = parse(body);
    const found = browserIntent(side, decodeURIComponent(js[1]!), params);
    if ("refused" in found) return found.refused;
    return js[2] === "confirm" ? confirm(side, found.pi, params) : authenticate(side, found.pi, params);
  }
  const renew = /^\/_fake\/subscriptions\/([^/]+)\/renew$/.exec(url.pathname);
  if (renew && method === "POST") {
    if (authorization !== `Bearer ${side.secretKey}`)
      return json(
        401,
        { error: { type: "invalid_request_error", message: "The fake's controls need its secret key." } },
        {},
      );
    const outcome = parse(body).outcome === "failed" ? "failed" : "paid";
    try {
      const { invoice } = side.renew(decodeURIComponent(renew[1]!), outcome);
      const hook = side.webhook(outcome === "paid" ? "invoice.paid" : "invoice.payment_failed", invoice);
      return json(200, { invoice, webhook: hook }, {});
    } catch (error) {
      const refusal = (error as { body?: () => Obj }).body?.();
      if (refusal) return json(404, refusal, {});
      throw error;
    }
  }
  return null;
}
