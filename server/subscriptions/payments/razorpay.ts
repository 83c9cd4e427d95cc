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

import {
  PaymentAdapterError,
  type GatewayCredentials,
  type PaymentAdapter,
  type PaymentIntent,
  type PaymentProof,
  type VerifiedPayment,
} from "./adapter";
import type { GatewayJobName } from "./jobs";
import { razorpayApi, type RazorpayAdapterOptions } from "./razorpay-api";
import {
  prepareRazorpayPayment,
  razorpayBeforeExitOnSubscriptionAbsence,
  razorpayHostedPaymentMethodUpdate,
  razorpayRefund,
  razorpayRenewal,
} from "./razorpay-charges";
import { int, razorpayEventDetails, str, type Entity } from "./razorpay-events";
import { razorpaySubscriptionControls } from "./razorpay-subscription-controls";
import { razorpayPlanChanges } from "./razorpay-switch";

const RAZORPAY_PROVIDER = "razorpay";
const RAZORPAY_PAYMENT_TYPES = ["razorpay", "razorpay_recurring"] as const;

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

export function createRazorpayAdapter(options: RazorpayAdapterOptions = {}): PaymentAdapter {
  const api = razorpayApi(options);
  const { call, needCredentials } = api;

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
    ...razorpayPlanChanges(api),

    preparePayment: (credentials, intent) => prepareRazorpayPayment(api, credentials, intent),

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

    beforeExitOnSubscriptionAbsence: (creds, details) => razorpayBeforeExitOnSubscriptionAbsence(api, creds, details),
    refund: (creds, request) => razorpayRefund(api, creds, request),
    hostedPaymentMethodUpdate: (creds, request) => razorpayHostedPaymentMethodUpdate(api, creds, request),
    renewal: (creds, details) => razorpayRenewal(api, creds, details),
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
