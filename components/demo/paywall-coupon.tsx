/**
 * The paywall demo's coupon (components/demo/paywall-demo.tsx): what a code does to each plan's
 * price line, checked with the SDK's validateCoupon, and the one sentence said about it.
 */
import type { SubscriptionPlan } from "@/sdk/accesstype/types";
import { periodInWords, trialInWords } from "@/server/subscriptions/catalogue.schema";

/** A coupon's answer for one plan: its price with the coupon, or why the coupon does not apply. */
export type CouponResult = { ok: true; cents: number; currency: string } | { ok: false; reason: string };
export type Coupon = { code: string; byPlan: Record<number, CouponResult> };

export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en", { style: "currency", currency }).format(cents / 100);
}

/** A plan's price line: its trial, its price, and with a coupon that applies the price struck through and the new one. */
export function PlanPrice({ plan, coupon }: { plan: SubscriptionPlan; coupon: Coupon | null }) {
  const result = coupon?.byPlan[plan.id];
  const price = money(plan.price_cents, plan.price_currency);
  const trial = trialInWords(plan);
  const code = coupon?.code ?? "";
  return (
    <span data-testid={`plan-price-${plan.id}`}>
      <strong>{plan.title}</strong> · {trial ? `${trial}, then ` : ""}
      {result?.ok ? (
        <>
          <s>{price}</s> <strong>{money(result.cents, result.currency)}</strong>
        </>
      ) : (
        price
      )}{" "}
      {periodInWords(plan.duration_length, plan.duration_unit, { per: true })}
      {result?.ok ? ` with ${code}` : null}
      {result && !result.ok ? (
        <span className="block text-sm text-red-800">
          {code}: {result.reason}
        </span>
      ) : null}
    </span>
  );
}

/** What the coupon does, in one sentence: the plans it applies to, or why it applies to none. */
export function couponSummary(coupon: Coupon, plans: SubscriptionPlan[]): string {
  const applies = plans.filter((p) => coupon.byPlan[p.id]?.ok).map((p) => p.title);
  if (applies.length) return `${coupon.code} applies to ${applies.join(" and ")}.`;
  const reasons = [...new Set(plans.map((p) => coupon.byPlan[p.id]).flatMap((r) => (r && !r.ok ? [r.reason] : [])))];
  return `${coupon.code} cannot be used: ${reasons.join(" ") || "it applies to none of these plans."}`;
}

/**
 * Why a coupon is refused, for a reader: the API's issue about the code ("does not apply to this
 * plan", "has expired"…) as a sentence; null when the error is not about the code.
 */
export function couponRefusal(error: unknown): string | null {
  const e = error as { error?: { message?: string; details?: { field?: string; issue?: string }[] } } | null;
  const detail = e?.error?.details?.find((d) => d.field === "coupon_code" || d.field === "body.coupon_code");
  if (detail?.issue?.startsWith("is not a coupon")) return "There is no coupon with this code.";
  if (detail?.issue) return `This coupon ${detail.issue}.`;
  return null;
}
