/**
 * The Razorpay adapter's calls about one payment or subscription (./razorpay.ts): the order or
 * subscription made at preview, the refunds, the hosted page of a subscription's card and its
 * renewal date. Each takes the adapter's API (./razorpay-api.ts).
 */
import "server-only";

import { addDuration } from "../subscribers/subscription-state";
import {
  PaymentAdapterError,
  type GatewayCredentials,
  type GatewayEventDetails,
  type PaymentAdapter,
  type PaymentIntent,
  type PreparedPayment,
} from "./adapter";
import type { RazorpayApi } from "./razorpay-api";
import { int, str } from "./razorpay-events";

/** Billing cycles of a Razorpay subscription when the plan's metadata gives no `razorpay_total_count`. */
const RAZORPAY_DEFAULT_TOTAL_COUNT = 120;

/** Razorpay subscription states in which its hosted page takes a new card (its documented lifecycle). */
const CARD_CHANGE_STATES = new Set(["authenticated", "active", "pending", "halted"]);

type Method<K extends keyof PaymentAdapter> = NonNullable<PaymentAdapter[K]>;
type RefundRequest = Parameters<Method<"refund">>[1];
type RefundResult = Awaited<ReturnType<Method<"refund">>>;
type HostedPaymentMethodRequest = Parameters<Method<"hostedPaymentMethodUpdate">>[1];

/** Razorpay's `start_at` (Unix seconds) of a subscription whose trial starts now. */
function trialEndSeconds(trial: NonNullable<PaymentIntent["trial"]>): number {
  return Math.floor(addDuration(new Date(), trial.length, trial.unit)!.getTime() / 1000);
}

export async function prepareRazorpayPayment(
  api: RazorpayApi,
  credentials: GatewayCredentials | null,
  intent: PaymentIntent,
): Promise<PreparedPayment> {
  const { call, errorDescription } = api;
  const creds = api.needCredentials(credentials);
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
}

export async function razorpayBeforeExitOnSubscriptionAbsence(
  { call, errorDescription }: RazorpayApi,
  creds: GatewayCredentials,
  details: GatewayEventDetails,
): Promise<void> {
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
}

export async function razorpayRefund(
  { call, errorDescription }: RazorpayApi,
  creds: GatewayCredentials | null,
  request: RefundRequest,
): Promise<RefundResult> {
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
  if (status >= 400) throw new PaymentAdapterError(errorDescription(data), status >= 500 ? "unavailable" : "declined");
  const id = typeof data.id === "string" ? data.id : null;
  if (!id) throw new PaymentAdapterError("Razorpay answered a refund without an id.", "unavailable");
  return { externalRefundId: id, details: { status: typeof data.status === "string" ? data.status : null } };
}

export async function razorpayHostedPaymentMethodUpdate(
  api: RazorpayApi,
  credentials: GatewayCredentials | null,
  request: HostedPaymentMethodRequest,
): Promise<{ url: string }> {
  const creds = api.needCredentials(credentials);
  const subscriptionId = request.gatewayReference;
  if (!subscriptionId || !/^sub_[A-Za-z0-9]+$/.test(subscriptionId))
    throw new PaymentAdapterError("This subscription has no Razorpay subscription.", "declined");
  const { status, data } = await api.call(creds, "GET", `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
  if (status >= 400) throw new PaymentAdapterError(api.errorDescription(data), "declined");
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
}

export async function razorpayRenewal(
  { call, errorDescription }: RazorpayApi,
  creds: GatewayCredentials,
  details: GatewayEventDetails,
): Promise<{ endTimestamp: Date | null }> {
  if (!details.externalSubscriptionId) return { endTimestamp: null };
  const { status, data } = await call(
    creds,
    "GET",
    `/v1/subscriptions/${encodeURIComponent(details.externalSubscriptionId)}`,
  );
  if (status >= 400) throw new PaymentAdapterError(errorDescription(data), "declined");
  const end = int(data.current_end);
  return { endTimestamp: end === null ? null : new Date(end * 1000) };
}
