/**
 * The reference payment adapter: Razorpay, as its public API documentation defines it
 * (docs/subscriptions.md, "Payment adapters"). payment_type `razorpay` (one-time, an Order) and
 * `razorpay_recurring` (a Razorpay Subscription on a Razorpay plan the publisher names in the
 * plan's metadata `razorpay_plan_id`).
 *
 * - preparePayment: `POST /v1/orders` {amount (subunits), currency, receipt: attempt id, notes}
 *   or `POST /v1/subscriptions` {plan_id, total_count, quantity, notes}; the id is the preview's
 *   external_reference_id, given to Razorpay Checkout in the browser.
 * - verifyPayment: Checkout's `razorpay_signature` is HMAC-SHA256(order_id + "|" + payment_id)
 *   (recurring: payment_id + "|" + subscription_id) under the key secret, hex; compared in
 *   constant time with the order id stored at preview (never one from the client). Then
 *   `GET /v1/payments/<id>` checks the amount, currency, order and status.
 * - webhooks: `X-Razorpay-Signature` is HMAC-SHA256(raw body) under the webhook secret (hex);
 *   `X-Razorpay-Event-Id` names the event (duplicates carry the same one).
 * - the card of a subscription: Razorpay takes a new card on its hosted subscription page, the
 *   subscription entity's `short_url` (`GET /v1/subscriptions/<id>`,
 *   https://razorpay.com/docs/api/payments/subscriptions/fetch-subscription-id/); a card changed
 *   there while the subscription is pending charges its due invoice, and a halted one becomes
 *   active again (https://razorpay.com/docs/payments/subscriptions/payment-retries/). Razorpay then
 *   sends `subscription.updated` ("sent when a subscription is successfully updated",
 *   https://razorpay.com/docs/payments/subscriptions/subscribe-to-webhooks/), whose payment entity
 *   names the card (`token_id` / `card_id`, `card.network`, `card.last4`).
 *
 * Every call goes through the guarded fetch (no private addresses unless the operator allows
 * them, timeouts, bounded answers); the base URL is RAZORPAY_API_BASE_URL.
 */
import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

import { ownValue } from "@/server/own-keys";

import { getEnv } from "../../../env.js";
import { guardedFetch } from "../../webhooks/guarded-fetch";
import { addDuration } from "../subscribers/subscription-state";
import {
  PaymentAdapterError,
  type GatewayCredentials,
  type PaymentAdapter,
  type PaymentIntent,
  type PaymentProof,
  type VerifiedPayment,
} from "./adapter";
import type { GatewayJobName } from "./jobs";
import { int, razorpayEventDetails, str, type Entity } from "./razorpay-events";
import { razorpaySubscriptionControls } from "./razorpay-subscription-controls";
import { razorpayPlanChanges } from "./razorpay-switch";

const RAZORPAY_PROVIDER = "razorpay";
const RAZORPAY_PAYMENT_TYPES = ["razorpay", "razorpay_recurring"] as const;
/** Billing cycles of a Razorpay subscription when the plan's metadata gives no `razorpay_total_count`. */
const RAZORPAY_DEFAULT_TOTAL_COUNT = 120;
const TIMEOUT_MS = 10_000;

type FetchLike = (url: string, init?: { method?: string; headers?: HeadersInit; body?: string }) => Promise<Response>;

type RazorpayAdapterOptions = {
  /** Default: RAZORPAY_API_BASE_URL. */
  baseUrl?: () => string;
  /** Default: the guarded fetch, private addresses allowed only by PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS. */
  fetch?: FetchLike;
};

// ─── Signatures (pure) ───────────────────────────────────────────────────────────────────────

/** HMAC-SHA256 of `payload` under `secret`, lower-case hex: every Razorpay signature. */
export function razorpayHmac(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(payload, "utf8").digest("hex");
}

/** Constant-time comparison of a received hex signature with the expected one. */
export function signatureMatches(received: unknown, expected: string): boolean {
  if (typeof received !== "string" || !/^[0-9a-f]{64}$/i.test(received.trim())) return false;
  const a = Buffer.from(received.trim().toLowerCase(), "hex");
  const b = Buffer.from(expected, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checkout's signature of a one-time payment: HMAC(order_id|payment_id, key secret). */
export function orderPaymentSignature(orderId: string, paymentId: string, keySecret: string): string {
  return razorpayHmac(`${orderId}|${paymentId}`, keySecret);
}

/** Checkout's signature of a subscription's payment: HMAC(payment_id|subscription_id, key secret). */
function subscriptionPaymentSignature(paymentId: string, subscriptionId: string, keySecret: string): string {
  return razorpayHmac(`${paymentId}|${subscriptionId}`, keySecret);
}

// ─── The adapter ─────────────────────────────────────────────────────────────────────────────

const EVENT_JOBS: Readonly<Record<string, GatewayJobName>> = Object.freeze({
  "payment.authorized": "one_time_subscription_charged",
  "payment.captured": "one_time_subscription_charged",
  "subscription.charged": "recurring_subscription_charged",
  // An automatic charge failed; Razorpay retries it on its own.
  "subscription.pending": "recurring_subscription_payment_failed",
  "subscription.halted": "recurring_subscription_cancelled",
  "subscription.cancelled": "recurring_subscription_cancelled",
  "subscription.updated": "recurring_subscription_payment_method_updated",
  // Paused or resumed on Razorpay's Dashboard (or by Masthead: then nothing changes).
  "subscription.paused": "recurring_subscription_updated",
  "subscription.resumed": "recurring_subscription_updated",
  // A refund made on Razorpay's Dashboard, or one asked through Masthead (its receipt is ours).
  "refund.processed": "payment_refunded",
  // A chargeback, and the bank's decision on it.
  "payment.dispute.created": "payment_disputed",
  "payment.dispute.under_review": "payment_disputed",
  "payment.dispute.action_required": "payment_disputed",
  "payment.dispute.won": "payment_disputed",
  "payment.dispute.lost": "payment_disputed",
});

/** Razorpay subscription states in which its hosted page takes a new card (its documented lifecycle). */
const CARD_CHANGE_STATES = new Set(["authenticated", "active", "pending", "halted"]);

export function createRazorpayAdapter(options: RazorpayAdapterOptions = {}): PaymentAdapter {
  const baseUrl = options.baseUrl ?? (() => getEnv().RAZORPAY_API_BASE_URL);
  const fetcher: () => FetchLike = () =>
    options.fetch ?? guardedFetch({ allowPrivate: getEnv().PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS, timeoutMs: TIMEOUT_MS });

  /** One API call with basic auth (key id : key secret); Razorpay's error description on failure. */
  async function call(
    creds: GatewayCredentials,
    method: "GET" | "POST" | "PATCH",
    path: string,
    body?: unknown,
  ): Promise<{ status: number; data: Entity }> {
    const auth = Buffer.from(`${creds.app_key}:${creds.secret}`).toString("base64");
    let response: Response;
    try {
      response = await fetcher()(`${baseUrl()}${path}`, {
        method,
        headers: {
          authorization: `Basic ${auth}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new PaymentAdapterError("Razorpay could not be reached.", "unavailable");
    }
    let data: Entity = {};
    try {
      data = (await response.json()) as Entity;
    } catch {
      if (response.ok) throw new PaymentAdapterError("Razorpay answered something unreadable.", "unavailable");
    }
    if (response.status === 401)
      throw new PaymentAdapterError("Razorpay refused the account's API keys.", "unavailable");
    if (response.status >= 500) throw new PaymentAdapterError("Razorpay is unavailable.", "unavailable");
    return { status: response.status, data };
  }

  const errorDescription = (data: Entity) => {
    const error = data.error as Entity | undefined;
    return str(error?.description) ?? "Razorpay refused the request.";
  };

  function needCredentials(creds: GatewayCredentials | null): GatewayCredentials {
    if (!creds || !creds.enabled) throw new PaymentAdapterError("Razorpay is not set up for this account.", "invalid");
    return creds;
  }

  return {
    paymentTypes: RAZORPAY_PAYMENT_TYPES,
    provider: RAZORPAY_PROVIDER,
    displayName: "Razorpay",
    // Razorpay charges each period at its start and says so by webhook, usually within minutes; a
    // day covers its delays before the reader hears of a failed payment.
    renewalReportedWithinMs: 24 * 60 * 60 * 1000,
    takesPayment: true,
    callers: "any",
    // Razorpay charges a subscription its Razorpay plan's amount, less an Offer linked by
    // `offer_id`; Offers are made on Razorpay's Dashboard only (no API creates or reads one), so
    // Masthead can neither make one equal to a coupon nor check that a linked one is.
    recurringCouponRefusal:
      "cannot be used with Razorpay subscriptions: Razorpay would charge the plan's full price each period",
    // Disabled keys still stop or pause what Razorpay charges (readers can no longer pay through them).
    subscriptionControls: razorpaySubscriptionControls(call, (creds) =>
      needCredentials(creds && { ...creds, enabled: true }),
    ),
    ...razorpayPlanChanges({ call, needCredentials, errorDescription }),

    async preparePayment(credentials, intent) {
      const creds = needCredentials(credentials);
      const notes = { attempt_id: intent.attemptId, account_id: String(intent.accountId) };
      if (!intent.recurring) {
        const { status, data } = await call(creds, "POST", "/v1/orders", {
          amount: intent.amountCents,
          currency: intent.currency,
          receipt: intent.attemptId,
          notes,
        });
        if (status >= 400) throw new PaymentAdapterError(errorDescription(data), "declined");
        const orderId = str(data.id);
        if (!orderId || data.amount !== intent.amountCents || data.currency !== intent.currency)
          throw new PaymentAdapterError("Razorpay created an order that does not match the payment.", "unavailable");
        return {
          externalReferenceId: orderId,
          clientOptions: {
            key: creds.app_key,
            order_id: orderId,
            amount: intent.amountCents,
            currency: intent.currency,
          },
        };
      }
      const metadata = intent.plan.metadata ?? {};
      const planId = str(metadata.razorpay_plan_id);
      if (!planId)
        throw new PaymentAdapterError(
          "This recurring plan has no Razorpay plan: set razorpay_plan_id in the plan's metadata.",
          "invalid",
        );
      const totalCount = int(Number(metadata.razorpay_total_count)) ?? RAZORPAY_DEFAULT_TOTAL_COUNT;
      const { status, data } = await call(creds, "POST", "/v1/subscriptions", {
        plan_id: planId,
        total_count: totalCount,
        quantity: 1,
        customer_notify: 1,
        // With a trial, this payment is only the authorization: the plan's first charge is at the trial's end.
        ...(intent.trial ? { start_at: trialEndSeconds(intent.trial) } : {}),
        notes,
      });
      if (status >= 400) throw new PaymentAdapterError(errorDescription(data), "declined");
      const subscriptionId = str(data.id);
      if (!subscriptionId) throw new PaymentAdapterError("Razorpay answered no subscription id.", "unavailable");
      return {
        externalReferenceId: subscriptionId,
        clientOptions: { key: creds.app_key, subscription_id: subscriptionId },
      };
    },

    async verifyPayment(credentials, intent, proof) {
      const creds = needCredentials(credentials);
      return verifyRazorpayPayment(creds, intent, proof, (path) => call(creds, "GET", path));
    },

    webhookRequestAuthorized(creds, request) {
      if (!creds.webhook_secret) return false;
      return signatureMatches(
        request.headers.get("x-razorpay-signature"),
        razorpayHmac(request.rawBody, creds.webhook_secret),
      );
    },

    webhookEventTypeMapping() {
      return EVENT_JOBS;
    },

    webhookEventDetails(request) {
      return razorpayEventDetails(request);
    },

    async beforeExitOnSubscriptionAbsence(creds, details) {
      // A gateway subscription nobody holds here: cancel it at once, so it charges no more.
      if (details.externalSubscriptionId) {
        const { status, data } = await call(
          creds,
          "POST",
          `/v1/subscriptions/${encodeURIComponent(details.externalSubscriptionId)}/cancel`,
          { cancel_at_cycle_end: 0 },
        );
        if (status >= 400 && !/cancelled|completed|expired/i.test(errorDescription(data)))
          throw new PaymentAdapterError(errorDescription(data), "declined");
      }
      // The payment itself: refunded in full (no amount = the whole payment). Only a captured
      // payment can be refunded; Razorpay returns an uncaptured one by itself.
      if (details.externalPaymentId && details.status === "captured") {
        const { status, data } = await call(
          creds,
          "POST",
          `/v1/payments/${encodeURIComponent(details.externalPaymentId)}/refund`,
          { notes: { reason: "no subscription for this payment" } },
        );
        // A second run (the job repeats after a crash) finds it refunded already: done.
        if (status >= 400 && !/refunded/i.test(errorDescription(data)))
          throw new PaymentAdapterError(errorDescription(data), "declined");
      }
    },

    async refund(creds, request) {
      if (!creds) throw new PaymentAdapterError("Razorpay is not configured for this account.", "declined");
      if (!request.externalPaymentId) throw new PaymentAdapterError("The payment has no Razorpay id.", "invalid");
      // POST /v1/payments/:id/refund {amount (subunits), receipt, notes}: a partial refund when
      // the amount is below the payment's; the receipt is our refund id.
      const { status, data } = await call(
        creds,
        "POST",
        `/v1/payments/${encodeURIComponent(request.externalPaymentId)}/refund`,
        {
          amount: request.amountCents,
          receipt: `refund_${request.refundId}`,
          notes: { account_id: String(request.accountId), ...(request.reason ? { reason: request.reason } : {}) },
        },
      );
      if (status >= 400)
        throw new PaymentAdapterError(errorDescription(data), status >= 500 ? "unavailable" : "declined");
      const id = typeof data.id === "string" ? data.id : null;
      if (!id) throw new PaymentAdapterError("Razorpay answered a refund without an id.", "unavailable");
      return { externalRefundId: id, details: { status: typeof data.status === "string" ? data.status : null } };
    },

    async hostedPaymentMethodUpdate(credentials, request) {
      const creds = needCredentials(credentials);
      const subscriptionId = request.gatewayReference;
      if (!subscriptionId || !/^sub_[A-Za-z0-9]+$/.test(subscriptionId))
        throw new PaymentAdapterError("This subscription has no Razorpay subscription.", "declined");
      const { status, data } = await call(creds, "GET", `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
      if (status >= 400) throw new PaymentAdapterError(errorDescription(data), "declined");
      if (data.id !== subscriptionId)
        throw new PaymentAdapterError("Razorpay answered another subscription.", "unavailable");
      const state = str(data.status) ?? "";
      if (!CARD_CHANGE_STATES.has(state))
        throw new PaymentAdapterError(
          `Razorpay reports this subscription as ${state || "unknown"}: its card cannot change.`,
          "declined",
        );
      const url = str(data.short_url);
      let parsed: URL | null = null;
      try {
        parsed = url ? new URL(url) : null;
      } catch {
        parsed = null;
      }
      if (!parsed || parsed.protocol !== "https:")
        throw new PaymentAdapterError("Razorpay gave no hosted page for this subscription.", "unavailable");
      return { url: parsed.toString() };
    },

    async renewal(creds, details) {
      if (!details.externalSubscriptionId) return { endTimestamp: null };
      const { status, data } = await call(
        creds,
        "GET",
        `/v1/subscriptions/${encodeURIComponent(details.externalSubscriptionId)}`,
      );
      if (status >= 400) throw new PaymentAdapterError(errorDescription(data), "declined");
      const end = int(data.current_end);
      return { endTimestamp: end === null ? null : new Date(end * 1000) };
    },
  };
}

const PAYMENT_STATUS: Record<string, VerifiedPayment["status"]> = {
  captured: "captured",
  authorized: "authorized",
  created: "pending",
  failed: "failed",
  refunded: "failed",
};

/** The checks of verifyPayment, on Checkout's answer and the payment Razorpay reports. */
async function verifyRazorpayPayment(
  creds: GatewayCredentials,
  intent: PaymentIntent,
  proof: PaymentProof,
  get: (path: string) => Promise<{ status: number; data: Entity }>,
): Promise<VerifiedPayment> {
  const reference = proof.externalReferenceId;
  const paymentId = proof.paymentToken ?? str(proof.extra.razorpay_payment_id);
  const signature = proof.extra.razorpay_signature ?? proof.extra.signature;
  const failed = (reason: string): VerifiedPayment => ({
    status: "failed",
    externalPaymentId: paymentId,
    externalOrderId: reference,
    reason,
  });
  if (!reference) return failed("This payment has no Razorpay order: preview it again.");
  if (!paymentId || !/^pay_[A-Za-z0-9]+$/.test(paymentId))
    return failed("payment.payment_token must be the Razorpay payment id (pay_…).");
  if (signature === undefined || signature === null || signature === "")
    return failed("payment.razorpay_signature is required.");
  const expected = intent.recurring
    ? subscriptionPaymentSignature(paymentId, reference, creds.secret)
    : orderPaymentSignature(reference, paymentId, creds.secret);
  if (!signatureMatches(signature, expected)) return failed("The Razorpay signature does not match this payment.");

  const { status, data } = await get(`/v1/payments/${encodeURIComponent(paymentId)}`);
  if (status === 404 || status === 400) return failed("Razorpay knows no such payment.");
  if (status >= 400) throw new PaymentAdapterError("Razorpay could not tell the payment's state.", "unavailable");
  if (data.id !== paymentId) return failed("Razorpay answered another payment.");
  // A one-time payment belongs to our order; a subscription's payments to an order of its invoice.
  if (!intent.recurring && data.order_id !== reference) return failed("The payment is not for this order.");
  if (data.currency !== intent.currency) return failed("The payment's currency differs from the subscription's.");
  if (data.amount !== intent.amountCents) return failed("The payment's amount differs from the subscription's.");
  const gatewayStatus = str(data.status) ?? "";
  const mapped = ownValue(PAYMENT_STATUS, gatewayStatus) ?? "pending";
  return {
    status: mapped,
    externalPaymentId: paymentId,
    externalOrderId: reference,
    ...(mapped === "failed"
      ? { reason: str(data.error_description) ?? `The Razorpay payment is ${gatewayStatus}.` }
      : {}),
    details: {
      razorpay_payment_id: paymentId,
      [intent.recurring ? "razorpay_subscription_id" : "razorpay_order_id"]: reference,
      status: gatewayStatus,
      method: str(data.method),
      international: data.international === true,
      fee: int(data.fee),
    },
  };
}

export const razorpayAdapter = createRazorpayAdapter();

/** Razorpay's `start_at` (Unix seconds) of a subscription whose trial starts now. */
function trialEndSeconds(trial: NonNullable<PaymentIntent["trial"]>): number {
  return Math.floor(addDuration(new Date(), trial.length, trial.unit)!.getTime() / 1000);
}
