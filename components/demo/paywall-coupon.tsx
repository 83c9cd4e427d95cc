/**
 * The paywall demo's coupon (components/demo/paywall-demo.tsx): what a code does to each plan's
 * price line, checked with the SDK's validateCoupon, and the one sentence said about it, in the
 * reader's words.
 */
import type { SubscriptionPlan } from "@/sdk/accesstype/types";

import type { DemoWords } from "./paywall-words";

/** A coupon's answer for one plan: its price with the coupon, or why the coupon does not apply. */
export type CouponResult = { ok: true; cents: number; currency: string } | { ok: false; reason: string };
export type Coupon = { code: string; byPlan: Record<number, CouponResult> };

/** "per month", "per 3 months", "for life". */
function periodWords(plan: Pick<SubscriptionPlan, "duration_length" | "duration_unit">, words: DemoWords) {
  return words.t("demo.period", { length: plan.duration_length, unit: plan.duration_unit.toLowerCase() });
}

/** A plan's trial as a reader reads it before the price ("14 days free"); null without one. */
function trialWords(plan: SubscriptionPlan, words: DemoWords): string | null {
  const { max_trial_period_length: length, max_trial_period_unit: unit } = plan;
  if (!plan.recurring || !plan.trial_period_enabled || !length || !unit) return null;
  return words.t("demo.trial", { length, unit: unit.toLowerCase() });
}

/** A plan's price line: its trial, its price, and with a coupon that applies the price struck through and the new one. */
export function PlanPrice({
  plan,
  coupon,
  words,
}: {
  plan: SubscriptionPlan;
  coupon: Coupon | null;
  words: DemoWords;
}) {
  const result = coupon?.byPlan[plan.id];
  const trial = trialWords(plan, words);
  const values = {
    price: words.money(plan.price_cents, plan.price_currency),
    period: periodWords(plan, words),
    code: coupon?.code ?? "",
    ...(trial ? { trial } : {}),
  };
  const line = result?.ok
    ? words.rich(
        trial ? "demo.priceWithTrialAndCoupon" : "demo.priceWithCoupon",
        { ...values, oldPrice: values.price, price: words.money(result.cents, result.currency) },
        { oldPrice: (text) => <s>{text}</s>, price: (text) => <strong>{text}</strong> },
      )
    : words.t(trial ? "demo.priceWithTrial" : "demo.price", values);
  return (
    <span data-testid={`plan-price-${plan.id}`}>
      <strong>{plan.title}</strong> · {line}
      {result && !result.ok ? (
        <span className="block text-sm text-red-800">
          {words.t("demo.couponRefused", { code: values.code, reason: result.reason })}
        </span>
      ) : null}
    </span>
  );
}

/** What the coupon does, in one sentence: the plans it applies to, or why it applies to none. */
export function couponSummary(coupon: Coupon, plans: SubscriptionPlan[], words: DemoWords): string {
  const applies = plans.filter((p) => coupon.byPlan[p.id]?.ok).map((p) => p.title);
  const list = (items: string[]) => new Intl.ListFormat(words.locale, { type: "conjunction" }).format(items);
  if (applies.length) return words.t("demo.couponApplies", { code: coupon.code, plans: list(applies) });
  const reasons = [...new Set(plans.map((p) => coupon.byPlan[p.id]).flatMap((r) => (r && !r.ok ? [r.reason] : [])))];
  return words.t("demo.couponCannotBeUsed", {
    code: coupon.code,
    reasons: reasons.join(" ") || words.t("demo.couponAppliesToNone"),
  });
}

/** The API's issues about a coupon code (server/subscriptions/checkout/pricing.ts couponIssue), as the reader's words. */
const ISSUES: [RegExp, string][] = [
  [/^is not a coupon/, "demo.coupon.noSuchCode"],
  [/^does not apply to this plan/, "demo.coupon.notForPlan"],
  [/^is not active/, "demo.coupon.notActive"],
  [/^is not valid yet/, "demo.coupon.notYetValid"],
  [/^has expired/, "demo.coupon.expired"],
  [/^has been used by this subscriber/, "demo.coupon.usedByYou"],
  [/^has been used as many times/, "demo.coupon.usedUp"],
  [/^is in /, "demo.coupon.otherCurrency"],
];

/**
 * Why a coupon is refused, for a reader: the API's issue about the code ("does not apply to this
 * plan", "has expired"…) in the reader's words; null when the error is not about the code.
 */
export function couponRefusal(error: unknown, words: DemoWords): string | null {
  const e = error as { error?: { message?: string; details?: { field?: string; issue?: string }[] } } | null;
  const detail = e?.error?.details?.find((d) => d.field === "coupon_code" || d.field === "body.coupon_code");
  if (!detail?.issue) return null;
  const known = ISSUES.find(([pattern]) => pattern.test(detail.issue!));
  return words.t(known ? known[1] : "demo.coupon.notUsable");
}
