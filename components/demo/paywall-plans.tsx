"use client";

/**
 * The demo paywall itself (./paywall-demo.tsx): the plans of its group (or of the reader's offer),
 * each with Subscribe and, where Stripe takes it, Pay by card; and the coupon box, whose code is
 * checked against each plan with validateCoupon.
 */
import type { AccessTypeApi, PaymentOption, SubscriptionPlan } from "@/sdk/accesstype/types";

import { takesStripe } from "./paywall-card";
import { couponRefusal, couponSummary, PlanPrice, type Coupon, type CouponResult } from "./paywall-coupon";
import { OfferCopy, offerCoupon, offerPlans, type useReaderOffer } from "./paywall-offer";
import { message } from "./paywall-text";
import type { DemoWords } from "./paywall-words";

type CouponBox = {
  sdk: AccessTypeApi | null;
  plans: SubscriptionPlan[];
  words: DemoWords;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  couponCode: string;
  setCouponCode: (code: string) => void;
  coupon: Coupon | null;
  setCoupon: (coupon: Coupon | null) => void;
};

function CouponForm({ sdk, plans, words, busy, setBusy, couponCode, setCouponCode, coupon, setCoupon }: CouponBox) {
  async function applyCoupon(event: React.FormEvent) {
    event.preventDefault();
    const code = couponCode.trim().toUpperCase();
    if (!sdk || !code) {
      setCoupon(null);
      return;
    }
    setBusy(true);
    const byPlan: Record<number, CouponResult> = {};
    await Promise.all(
      plans.map(async (plan) => {
        try {
          const answer = await sdk.validateCoupon({ subscriptionPlanId: plan.id, couponCode: code });
          byPlan[plan.id] = answer.valid
            ? { ok: true, cents: answer.discounted_price_cents, currency: answer.price_currency }
            : { ok: false, reason: words.t("demo.coupon.notForPlan") };
        } catch (error) {
          byPlan[plan.id] = { ok: false, reason: couponRefusal(error, words) ?? message(error, words) };
        }
      }),
    );
    setCoupon({ code, byPlan });
    setBusy(false);
  }

  function removeCoupon() {
    setCoupon(null);
    setCouponCode("");
  }

  return (
    <>
      <form onSubmit={applyCoupon} className="mt-4 flex flex-wrap items-end gap-2 text-sm">
        <label className="flex flex-col">
          <span className="font-medium">{words.t("demo.couponCode")}</span>
          <input
            value={couponCode}
            onChange={(e) => setCouponCode(e.target.value)}
            maxLength={64}
            autoComplete="off"
            autoCapitalize="characters"
            className="mt-1 min-h-11 rounded border border-gray-400 bg-white px-2 py-1 uppercase sm:min-h-9"
          />
        </label>
        <button
          type="submit"
          disabled={busy || !couponCode.trim()}
          className="min-h-11 rounded border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 disabled:opacity-50 sm:min-h-9"
        >
          {words.t("demo.apply")}
        </button>
        {coupon ? (
          <button type="button" onClick={removeCoupon} className="min-h-11 px-2 text-gray-700 underline sm:min-h-9">
            {words.t("demo.removeCoupon")}
          </button>
        ) : null}
      </form>
      <p className="mt-2 text-sm" role="status" data-testid="coupon-status">
        {coupon ? couponSummary(coupon, plans, words) : ""}
      </p>
    </>
  );
}

export function PaywallPlans(
  props: CouponBox & {
    group: string;
    offer: ReturnType<typeof useReaderOffer>;
    options: Record<string, PaymentOption> | null;
    signedIn: boolean;
    onSubscribe: (plan: SubscriptionPlan) => void;
    onPayByCard: (plan: SubscriptionPlan) => void;
  },
) {
  const { words, group, offer, plans, coupon, options, busy, signedIn } = props;
  return (
    <section aria-labelledby="paywall-title" className="rounded-lg border-2 border-brand-700 bg-white p-5">
      <h2 id="paywall-title" className="text-xl font-bold">
        {words.t("demo.paywallTitle")}
      </h2>
      <p className="mt-1 text-gray-700">{words.t("demo.paywallText", { group })}</p>
      <OfferCopy offer={offer?.offer} />
      <ul className="mt-4 space-y-3">
        {offerPlans(plans, offer).map((plan) => (
          <li key={plan.id} className="flex flex-wrap items-center justify-between gap-2">
            <PlanPrice plan={plan} coupon={coupon ?? offerCoupon(offer)} words={words} />
            <button
              type="button"
              disabled={busy || !signedIn}
              onClick={() => props.onSubscribe(plan)}
              className="rounded bg-brand-700 px-3 py-1.5 font-semibold text-white disabled:opacity-50"
            >
              {words.t("demo.subscribePlan", { plan: plan.title })}
            </button>
            {takesStripe(options, plan) ? (
              <button
                type="button"
                disabled={busy || !signedIn}
                onClick={() => props.onPayByCard(plan)}
                className="rounded border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 disabled:opacity-50"
              >
                {words.t("demo.payByCardPlan", { plan: plan.title })}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <CouponForm {...props} />
      {!signedIn ? <p className="mt-3 text-sm text-gray-700">{words.t("demo.signInToSubscribe")}</p> : null}
    </section>
  );
}
