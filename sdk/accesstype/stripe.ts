/**
 * The Stripe browser step of `getPaymentOptions().stripe.proceed(paymentObject, {container})`
 * (docs/subscriptions.md, "Browser SDK"): after the preview, load Stripe.js (the option's `js_url`,
 * https://js.stripe.com/v3/ by default), mount Stripe's Payment Element with the preview's
 * `client_secret` in a card form drawn in the page's container, and on "Pay" confirm with
 * `stripe.confirmPayment({elements, confirmParams: {return_url}, redirect: "if_required"})`: a
 * 3-D Secure challenge happens inside Stripe.js. Resolves with `payment_token` = the
 * PaymentIntent's id (a one-time payment's, or a subscription's first invoice's), which the
 * create verifies with Stripe before anything is granted.
 *
 * A card Stripe.js finds incomplete (`validation_error`) is said in the form and the reader corrects
 * it; a decline or a failed (or abandoned) 3-D Secure challenge rejects with 402 PAYMENT_FAILED and
 * Stripe's words, and nothing is created; Cancel rejects with PAYMENT_CANCELLED. Only Stripe.js's
 * documented API is used (docs.stripe.com/js).
 */
/* eslint-disable @typescript-eslint/only-throw-error, @typescript-eslint/prefer-promise-reject-errors --
   the SDK's documented contract: promises reject with the plain `{status, error}` object. */
import type { GatewayHandler } from "./client";
import { stripeLocale, type SdkWords } from "./messages";
import { sdkError } from "./request";
import type { AccessTypeError, PreviewResult, ProceedOptions } from "./types";

export const STRIPE_JS_URL = "https://js.stripe.com/v3/";

/** The part of Stripe.js the step uses, as documented (Stripe(), elements(), create("payment"), confirmPayment). */
type StripeConfirmResult = {
  error?: { type?: string; code?: string; message?: string };
  paymentIntent?: { id: string; status: string };
};
type StripeElement = { mount(target: HTMLElement): void; destroy(): void };
type StripeElements = { create(type: "payment"): StripeElement };
type StripeInstance = {
  elements(options: { clientSecret: string; locale: string }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    confirmParams: { return_url: string };
    redirect: "if_required";
  }): Promise<StripeConfirmResult>;
};
export type StripeJs = (publishableKey: string) => StripeInstance;

/** The card form the step draws in the page: the Payment Element's place, Pay and Cancel, an error line. */
export type CardForm = {
  mountPoint: HTMLElement;
  onSubmit(handler: () => void): void;
  onCancel(handler: () => void): void;
  busy(on: boolean): void;
  error(message: string): void;
  remove(): void;
};

type StripeDeps = {
  loadStripe(url: string): Promise<StripeJs>;
  /** The form in `container`, in the reader's words, or null when there is no such element. */
  cardForm(container: ProceedOptions["container"], words: SdkWords, payLabel: string): CardForm | null;
  /** Where a payment method that must leave the page (a bank's page) comes back to. */
  returnUrl(): string;
};

/** A PaymentIntent Stripe took (or holds, or is still processing): the create decides what it grants. */
const TAKEN = new Set(["succeeded", "processing", "requires_capture"]);

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const isSdkError = (e: unknown): e is AccessTypeError =>
  typeof e === "object" && e !== null && typeof (e as AccessTypeError).error?.code === "string";

/** "Pay $9.00": the preview's frozen amount in the reader's locale (minor units by the currency's digits). */
export function payLabel(preview: PreviewResult, words: SdkWords): string {
  const cents = preview.subscription?.payment_amount_cents;
  const currency = preview.subscription?.payment_amount_currency;
  if (typeof cents !== "number" || !currency) return words.t("sdk.payPlain");
  try {
    const format = new Intl.NumberFormat(words.locale, { style: "currency", currency });
    const amount = format.format(cents / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
    return words.t("sdk.pay", { amount });
  } catch {
    return words.t("sdk.payPlain");
  }
}

export function createStripeGateway(deps: StripeDeps): GatewayHandler {
  return async ({ preview, option, ui, ...args }) => {
    const words: SdkWords = args.words;
    const given = preview.payment_options ?? {};
    const clientSecret = text(given.client_secret);
    const publishableKey = text(given.publishable_key) ?? text(option.app_key);
    if (!clientSecret || !publishableKey) throw sdkError(422, "UNPROCESSABLE", "The preview made no Stripe payment.");
    const form = deps.cardForm(ui?.container, words, payLabel(preview, words));
    if (!form)
      throw sdkError(400, "BAD_REQUEST", "Stripe's card form needs a container: proceed(paymentObject, {container}).");
    let stripe: StripeInstance;
    let elements: StripeElements;
    let element: StripeElement;
    try {
      const Stripe = await deps.loadStripe(text(option.js_url) ?? STRIPE_JS_URL);
      stripe = Stripe(publishableKey);
      elements = stripe.elements({ clientSecret, locale: stripeLocale(words.locale) });
      element = elements.create("payment");
      element.mount(form.mountPoint);
    } catch (error) {
      form.remove();
      // Stripe.js did not load (the loader's error), or its form could not be mounted.
      throw sdkError(
        0,
        "GATEWAY_UNAVAILABLE",
        words.t(isSdkError(error) ? "sdk.gatewayUnavailable" : "sdk.formUnavailable"),
      );
    }
    return new Promise((resolve, reject) => {
      const finish = () => {
        element.destroy();
        form.remove();
      };
      const fail = (error: AccessTypeError) => {
        finish();
        reject(error);
      };
      form.onCancel(() => fail(sdkError(0, "PAYMENT_CANCELLED", words.t("sdk.formClosed"))));
      form.onSubmit(() => {
        form.busy(true);
        form.error("");
        stripe
          .confirmPayment({ elements, confirmParams: { return_url: deps.returnUrl() }, redirect: "if_required" })
          .then(
            (result) => {
              const error = result.error;
              if (error?.type === "validation_error") {
                // Stripe.js checked the card before sending it: the reader corrects it here.
                form.busy(false);
                form.error(error.message || words.t("sdk.checkCard"));
                return;
              }
              if (error) return fail(sdkError(402, "PAYMENT_FAILED", error.message || words.t("sdk.paymentFailed")));
              const intent = result.paymentIntent;
              if (!intent?.id || !TAKEN.has(intent.status))
                return fail(sdkError(402, "PAYMENT_FAILED", words.t("sdk.paymentNotCompleted")));
              finish();
              resolve({ payment_token: intent.id });
            },
            () => fail(sdkError(0, "GATEWAY_UNAVAILABLE", words.t("sdk.confirmFailed"))),
          );
      });
    });
  };
}

let loading: Promise<StripeJs> | null = null;

/** Stripe.js from `url` (once per page), or the one the page already loaded. */
export function loadStripeJs(url: string): Promise<StripeJs> {
  const existing = (window as unknown as { Stripe?: StripeJs }).Stripe;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<StripeJs>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => {
      const loaded = (window as unknown as { Stripe?: StripeJs }).Stripe;
      if (loaded) resolve(loaded);
      else reject(sdkError(0, "GATEWAY_UNAVAILABLE", "Stripe.js did not load."));
    };
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(sdkError(0, "GATEWAY_UNAVAILABLE", "Stripe.js could not be loaded."));
    };
    document.head.appendChild(script);
  });
  return loading;
}
