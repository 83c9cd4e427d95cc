"use client";

/**
 * Paying by card through Stripe on the demo paywall (docs/subscriptions.md "Demo paywalled
 * story"): offered for a plan when the account's Stripe gateway is enabled (the SDK's
 * getPaymentOptions lists `stripe`) and the plan takes Stripe. The dialog holds the container in
 * which the SDK's Stripe step draws its card form (Stripe's Payment Element, Pay and Cancel);
 * 3-D Secure happens inside Stripe.js.
 */
import type { RefObject } from "react";

import type { PaymentObject, PaymentOption, SubscriptionPlan } from "@/sdk/accesstype/types";

import type { DemoWords } from "./paywall-words";

/** Whether the reader may pay for `plan` by card through Stripe. */
export function takesStripe(options: Record<string, PaymentOption> | null, plan: SubscriptionPlan): boolean {
  if (!options?.stripe) return false;
  const providers = plan.supported_payment_providers ?? [];
  return providers.length === 0 || providers.includes("stripe");
}

/** The payment object proceed() takes for `plan`: a recurring plan is a Stripe subscription. */
export function planPaymentObject(plan: SubscriptionPlan, paymentType: string, coupon: string | null): PaymentObject {
  return {
    type: "standard",
    plan: {
      id: plan.id,
      title: plan.title,
      description: plan.description,
      price_cents: plan.price_cents,
      price_currency: plan.price_currency,
      duration_length: plan.duration_length,
      duration_unit: plan.duration_unit,
    },
    payment: { payment_type: paymentType },
    ...(coupon ? { coupon_code: coupon } : {}),
  };
}

export function stripePaymentType(plan: SubscriptionPlan): string {
  return plan.recurring ? "stripe_recurring" : "stripe";
}

export function CardPaymentDialog({
  planTitle,
  containerRef,
  words,
}: {
  planTitle: string;
  containerRef: RefObject<HTMLDivElement | null>;
  words: DemoWords;
}) {
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="card-payment-title"
      aria-describedby="card-payment-text"
      className="fixed inset-0 z-10 flex items-center justify-center overflow-y-auto bg-black/40 p-4"
    >
      <div className="w-full max-w-md rounded-lg bg-white p-5 shadow-lg">
        <h2 id="card-payment-title" className="text-lg font-bold">
          {words.t("demo.payByCard")}
        </h2>
        <p id="card-payment-text" className="mt-2 text-sm text-gray-700">
          {words.t("demo.payByCardText", { plan: planTitle })}
        </p>
        {/* The SDK's Stripe step draws its form here (sdk/accesstype/stripe-form.ts). */}
        <div
          ref={containerRef}
          data-testid="card-payment-form"
          className="mt-4 text-sm [&_.masthead-stripe-cancel]:min-h-11 [&_.masthead-stripe-cancel]:rounded [&_.masthead-stripe-cancel]:border [&_.masthead-stripe-cancel]:border-gray-500 [&_.masthead-stripe-cancel]:px-3 [&_.masthead-stripe-error]:font-medium [&_.masthead-stripe-error]:text-red-800 [&_.masthead-stripe-pay]:min-h-11 [&_.masthead-stripe-pay]:rounded [&_.masthead-stripe-pay]:bg-brand-700 [&_.masthead-stripe-pay]:px-3 [&_.masthead-stripe-pay]:font-semibold [&_.masthead-stripe-pay]:text-white [&_button:disabled]:opacity-60"
        />
      </div>
    </div>
  );
}
