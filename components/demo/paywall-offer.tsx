"use client";

/**
 * The demo paywall's offer (docs/subscriptions.md "Offers and experiments"): the SDK's getOffer
 * for this reader, with the page's own utm_medium and ref (the newsletter rule) and locale. The
 * offer's copy is the staff's, in the locale the server chose (its lang and dir on the element);
 * its plans, coupon and trial replace the page's own, and checkout carries the offer id and the
 * test exposure so the offer's result counts the subscription.
 */
import { useEffect, useState } from "react";

import type { AccessTypeApi, PaymentObject, ReaderOffer, SubscriptionPlan } from "@/sdk/accesstype/types";

import type { Coupon } from "./paywall-coupon";

type Offer = NonNullable<ReaderOffer["offer"]>;
type OfferAnswer = ReaderOffer | null;

/** The reader's offer while the paywall shows (asked again when the reader changes). */
export function useReaderOffer(sdk: AccessTypeApi | null, shown: boolean, locale: string, readerKey: string | null) {
  const [answer, setAnswer] = useState<OfferAnswer>(null);
  useEffect(() => {
    if (!sdk || !shown) return;
    const page = new URLSearchParams(window.location.search);
    let current = true;
    sdk
      .getOffer({ locale, utmMedium: page.get("utm_medium"), ref: page.get("ref") })
      .then((next) => current && setAnswer(next))
      .catch(() => current && setAnswer(null));
    return () => {
      current = false;
    };
  }, [sdk, shown, locale, readerKey]);
  return answer;
}

/** The offer's plans, in its order, from the page's plans; the page's own plans without an offer. */
export function offerPlans(plans: SubscriptionPlan[], answer: OfferAnswer): SubscriptionPlan[] {
  const offer = answer?.offer;
  if (!offer) return plans;
  const byId = new Map(plans.map((p) => [p.id, p]));
  return offer.plans.flatMap((o) => {
    const plan = byId.get(o.id);
    if (!plan) return [];
    // An offer's trial days are shown as the plan's trial (its own when the offer names none).
    return o.trial_days ? [{ ...plan, max_trial_period_length: o.trial_days, max_trial_period_unit: "days" }] : [plan];
  });
}

/** The offer's coupon as the page's coupon line shows it (the price with it for the plans it applies to). */
export function offerCoupon(answer: OfferAnswer): Coupon | null {
  const offer = answer?.offer;
  if (!offer?.coupon_code) return null;
  const byPlan: Coupon["byPlan"] = {};
  for (const p of offer.plans)
    if (p.offer_price_cents !== null)
      byPlan[p.id] = { ok: true, cents: p.offer_price_cents, currency: p.price_currency };
  return { code: offer.coupon_code, byPlan };
}

/** What checkout carries for a plan bought from the offer. */
export function offerPaymentFields(answer: OfferAnswer, plan: SubscriptionPlan): Partial<PaymentObject> {
  const offer = answer?.offer;
  const item = offer?.plans.find((p) => p.id === plan.id);
  if (!offer || !item) return {};
  return {
    offer_id: offer.id,
    exposure_id: answer?.experiment?.exposure_id ?? null,
    ...(item.offer_price_cents !== null && offer.coupon_code ? { coupon_code: offer.coupon_code } : {}),
    ...(item.trial_days ? { trial_period_length: item.trial_days, trial_period_unit: "days" as const } : {}),
  };
}

/** The offer's headline and body, in the staff's words and the locale the server chose. */
export function OfferCopy({ offer }: { offer: Offer | null | undefined }) {
  if (!offer) return null;
  return (
    <div lang={offer.locale} dir={offer.dir} data-testid="paywall-offer" data-offer-id={offer.id} className="mt-2">
      <p className="text-lg font-semibold">{offer.headline}</p>
      {offer.body ? <p className="whitespace-pre-line text-gray-700">{offer.body}</p> : null}
    </div>
  );
}
