"use client";

/**
 * The demo paywall's purchases (./paywall-demo.tsx): through the test gateway (this page's dialog
 * stands in for a gateway's widget, ./paywall-test-payment.tsx) or, when the account's Stripe
 * gateway is enabled, by card in Stripe's Payment Element (./paywall-card.tsx).
 */
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

import type { AccessTypeApi, GatewayPayment, SubscriptionPlan } from "@/sdk/accesstype/types";

import { planPaymentObject, stripePaymentType } from "./paywall-card";
import { couponRefusal, type Coupon } from "./paywall-coupon";
import { offerPaymentFields, type useReaderOffer } from "./paywall-offer";
import type { Payment } from "./paywall-test-payment";
import { message } from "./paywall-text";
import type { DemoWords } from "./paywall-words";

type Checkout = {
  sdk: AccessTypeApi | null;
  words: DemoWords;
  coupon: Coupon | null;
  offer: ReturnType<typeof useReaderOffer>;
  setBusy: (busy: boolean) => void;
  setNotice: (notice: string | null) => void;
  /** Subscribed: the page checks the story again. */
  afterPurchase: (sdk: AccessTypeApi) => Promise<void>;
};

/** The test gateway's browser step: the dialog's Pay resolves with the gateway's token. */
function registerTestGateway(
  sdk: AccessTypeApi,
  args: { plan: SubscriptionPlan; withCoupon: string | null; words: DemoWords; setPayment: (p: Payment) => void },
) {
  const { plan, withCoupon, words, setPayment } = args;
  sdk.registerGateway("demo_test", ({ preview }) => {
    const order = preview.external_reference_id ?? "";
    const attempt = order.replace(/^demo_order_/, "");
    const cents = preview.subscription.payment_amount_cents ?? plan.price_cents;
    const currency = preview.subscription.payment_amount_currency ?? plan.price_currency;
    const { trial_period_length: trialLength, trial_period_unit: trialUnit } = preview.subscription;
    // The first period's price after the coupon (and tax), as the preview computed it.
    const total = preview.subscription.total_amount_cents;
    const firstPayment = typeof total === "number" ? total : plan.price_cents;
    return new Promise<GatewayPayment>((resolve, reject) =>
      setPayment({
        planTitle: plan.title,
        amount: words.money(cents, currency),
        coupon: withCoupon,
        explanation:
          trialLength && trialUnit
            ? words.t("demo.trialToday", {
                authorization: words.money(cents, currency),
                price: words.money(firstPayment, currency),
                length: trialLength,
                unit: trialUnit.toLowerCase(),
              })
            : null,
        resolve: () => resolve({ payment_token: `demo_pay_${attempt}` }),
        reject,
      }),
    );
  });
}

export function usePaywallCheckout({ sdk, words, coupon, offer, setBusy, setNotice, afterPurchase }: Checkout) {
  const [payment, setPayment] = useState<Payment | null>(null);
  const [cardPlan, setCardPlan] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const payRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (payment) payRef.current?.focus();
  }, [payment]);

  async function subscribe(plan: SubscriptionPlan) {
    if (!sdk) return;
    const withCoupon = coupon?.byPlan[plan.id]?.ok ? coupon.code : null;
    const fromOffer = offerPaymentFields(offer, plan);
    setBusy(true);
    setNotice(null);
    setPayError(null);
    try {
      registerTestGateway(sdk, { plan, withCoupon, words, setPayment });
      const options = await sdk.getPaymentOptions();
      await options.demo_test!.proceed({
        ...planPaymentObject(plan, "demo_test", withCoupon),
        ...fromOffer,
        // A code the reader typed wins over the offer's.
        ...(withCoupon ? { coupon_code: withCoupon } : {}),
      });
      setNotice(words.t("demo.subscribed"));
      await afterPurchase(sdk);
    } catch (error) {
      const code = (error as { error?: { code?: string } }).error?.code;
      setNotice(
        code === "PAYMENT_CANCELLED"
          ? words.t("demo.paymentCancelled")
          : (couponRefusal(error, words) ?? message(error, words)),
      );
    } finally {
      setPayment(null);
      setBusy(false);
    }
  }

  /** Stripe: the SDK previews, draws Stripe's card form in the dialog, confirms (3-D Secure inside), creates. */
  async function payByCard(plan: SubscriptionPlan) {
    if (!sdk) return;
    const withCoupon = coupon?.byPlan[plan.id]?.ok ? coupon.code : null;
    setBusy(true);
    setNotice(null);
    setPayError(null);
    // The dialog (and the container the SDK draws in) is on the page before the SDK looks for it.
    flushSync(() => setCardPlan(plan.title));
    try {
      const current = await sdk.getPaymentOptions();
      await current.stripe!.proceed(planPaymentObject(plan, stripePaymentType(plan), withCoupon), {
        container: cardRef.current,
      });
      setCardPlan(null);
      setNotice(words.t("demo.subscribed"));
      await afterPurchase(sdk);
    } catch (error) {
      const code = (error as { error?: { code?: string } }).error?.code;
      if (code === "PAYMENT_CANCELLED") setNotice(words.t("demo.paymentCancelled"));
      else
        setPayError(
          words.t("demo.paymentNotThrough", { reason: couponRefusal(error, words) ?? message(error, words) }).trim(),
        );
    } finally {
      setCardPlan(null);
      setBusy(false);
    }
  }

  return { payment, cardPlan, payError, cardRef, payRef, subscribe, payByCard };
}
