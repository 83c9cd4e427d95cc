/**
 * The Razorpay browser step of `getPaymentOptions().razorpay.proceed(paymentObject)`: after the
 * preview, open Razorpay Checkout (https://checkout.razorpay.com/v1/checkout.js) on the order the
 * preview made (`external_reference_id`: an order id, or a subscription id for
 * razorpay_recurring), and resolve with what Razorpay hands back, which the create sends as
 * `payment.payment_token` (razorpay_payment_id) and `payment.razorpay_signature`, verified on the
 * server (docs/subscriptions.md, "Razorpay").
 */
/* eslint-disable @typescript-eslint/only-throw-error, @typescript-eslint/prefer-promise-reject-errors --
   the SDK's documented contract: promises reject with the plain `{status, error}` object. */
import type { GatewayHandler } from "./client";
import type { SdkWords } from "./messages";
import { sdkError } from "./request";

const RAZORPAY_CHECKOUT_URL = "https://checkout.razorpay.com/v1/checkout.js";

type RazorpayResponse = {
  razorpay_payment_id: string;
  razorpay_order_id?: string;
  razorpay_subscription_id?: string;
  razorpay_signature: string;
};
type RazorpayInstance = { open(): void; on(event: string, callback: (response: unknown) => void): void };
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

let loading: Promise<RazorpayConstructor> | null = null;

function loadCheckout(): Promise<RazorpayConstructor> {
  const existing = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = RAZORPAY_CHECKOUT_URL;
    script.async = true;
    script.onload = () => {
      const loaded = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (loaded) resolve(loaded);
      else reject(sdkError(0, "GATEWAY_UNAVAILABLE", "Razorpay Checkout did not load."));
    };
    script.onerror = () => {
      loading = null;
      reject(sdkError(0, "GATEWAY_UNAVAILABLE", "Razorpay Checkout could not be loaded."));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export const razorpayGateway: GatewayHandler = async ({ preview, paymentObject, option, user, ...args }) => {
  const words: SdkWords = args.words;
  const Razorpay = await loadCheckout().catch(() => {
    throw sdkError(0, "GATEWAY_UNAVAILABLE", words.t("sdk.gatewayUnavailable"));
  });
  const reference = preview.external_reference_id;
  if (!reference) throw sdkError(422, "UNPROCESSABLE", "The preview made no Razorpay order.");
  const recurring = String(paymentObject.payment?.payment_type ?? "").endsWith("_recurring");
  const subscription = preview.subscription;
  return new Promise((resolve, reject) => {
    const checkout = new Razorpay({
      key: option.app_key,
      ...(recurring ? { subscription_id: reference } : { order_id: reference }),
      amount: subscription.payment_amount_cents ?? paymentObject.plan.price_cents,
      currency: subscription.payment_amount_currency ?? paymentObject.plan.price_currency,
      name: paymentObject.plan.title,
      description: paymentObject.plan.description ?? undefined,
      prefill: { email: user.email ?? undefined, contact: user.phone ?? undefined },
      handler: (response: RazorpayResponse) =>
        resolve({
          payment_token: response.razorpay_payment_id,
          razorpay_signature: response.razorpay_signature,
          ...(response.razorpay_order_id ? { razorpay_order_id: response.razorpay_order_id } : {}),
          ...(response.razorpay_subscription_id ? { razorpay_subscription_id: response.razorpay_subscription_id } : {}),
        }),
      modal: { ondismiss: () => reject(sdkError(0, "PAYMENT_CANCELLED", words.t("sdk.windowClosed"))) },
    });
    checkout.on("payment.failed", (response) => {
      const description = (response as { error?: { description?: string } })?.error?.description;
      reject(sdkError(402, "PAYMENT_FAILED", description || words.t("sdk.paymentFailed")));
    });
    checkout.open();
  });
};
