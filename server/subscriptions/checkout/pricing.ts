/**
 * What a checkout costs: pure rules, no IO (docs/subscriptions.md, "Checkout"). Checkout loads
 * the rows, these decide; every amount is integer minor units ("cents").
 *
 * - price: the plan's price in the asked currency (its `prices`, the default price included);
 * - coupon: percent or fixed, valid dates, enabled, plan/group restriction, limits → the spec's
 *   discount_detail; a discount never takes the price below 0;
 * - tax: every enabled rule of the account matching the buyer's country (and region) applies,
 *   each on the same base; exclusive rules are added to the price, inclusive ones are inside it;
 *   amounts are rounded half up to whole cents per rule;
 * - trial: recurring plans with a trial, at most the plan's maximum; the payment is then the
 *   authorization amount (5 currency units), charged and refunded by the gateway;
 * - campaign contributions: the reader chooses the amount, at least the plan's price.
 */
import { ownValue } from "@/server/own-keys";

import { formatInstant } from "../../dates.schema";
import type { ErrorDetail } from "../../errors";
import type { DurationUnit } from "../../generated/prisma/enums";
import { minorUnits } from "../money.schema";
import { addDuration } from "../subscribers/subscription-state";

// ─── Price ───────────────────────────────────────────────────────────────────────────────────

export type PricedPlan = {
  priceCents: number;
  priceCurrency: string;
  prices: unknown;
};

/** The plan's price in `currency` (default: its default currency), or null when it has none there. */
export function planPriceIn(
  plan: PricedPlan,
  currency?: string | null,
): { amountCents: number; currency: string } | null {
  const wanted = (currency ?? plan.priceCurrency).toUpperCase();
  if (wanted === plan.priceCurrency) return { amountCents: plan.priceCents, currency: wanted };
  const prices = (plan.prices ?? {}) as Record<string, { amount_cents?: unknown } | undefined>;
  const amount = ownValue(prices, wanted)?.amount_cents;
  return typeof amount === "number" && Number.isInteger(amount) && amount >= 0
    ? { amountCents: amount, currency: wanted }
    : null;
}

// ─── Coupons ─────────────────────────────────────────────────────────────────────────────────

export type CouponTerms = {
  id: number;
  code: string;
  title: string;
  discountType: "PERCENT" | "FIXED";
  percentOff: number | null;
  amountOffCents: number | null;
  amountCurrency: string | null;
  validFrom: Date;
  validUntil: Date | null;
  maxRedemptions: number | null;
  maxRedemptionsPerSubscriber: number | null;
  redemptionsCount: number;
  planIds: unknown;
  groupIds: unknown;
  enabled: boolean;
  deletedAt: Date | null;
};

/** Spec §2.2 Discount detail ({} without a discount). */
export type DiscountDetail =
  | Record<string, never>
  | {
      code: string;
      discount_type: "percent" | "fixed";
      title: string;
      value: number;
      discounted_price_cents: number;
      price_cents: number;
      price_currency: string;
    };

/**
 * Why the coupon cannot be used for this plan now (null when it can). `subscriberRedemptions` is
 * how often this subscriber used it (null: not known, e.g. a guest before checkout).
 */
export function couponIssue(
  coupon: CouponTerms,
  args: { planId: number; groupId: number; currency: string; now: Date; subscriberRedemptions: number | null },
): string | null {
  if (!coupon.enabled || coupon.deletedAt) return "is not active";
  if (args.now.getTime() < coupon.validFrom.getTime()) return "is not valid yet";
  if (coupon.validUntil && args.now.getTime() > coupon.validUntil.getTime()) return "has expired";
  const planIds = (coupon.planIds as number[]) ?? [];
  const groupIds = (coupon.groupIds as number[]) ?? [];
  if ((planIds.length || groupIds.length) && !planIds.includes(args.planId) && !groupIds.includes(args.groupId))
    return "does not apply to this plan";
  if (coupon.discountType === "FIXED" && coupon.amountCurrency !== args.currency.toUpperCase())
    return `is in ${coupon.amountCurrency ?? "another currency"}, not ${args.currency.toUpperCase()}`;
  if (coupon.maxRedemptions !== null && coupon.redemptionsCount >= coupon.maxRedemptions)
    return "has been used as many times as it may be";
  if (
    coupon.maxRedemptionsPerSubscriber !== null &&
    args.subscriberRedemptions !== null &&
    args.subscriberRedemptions >= coupon.maxRedemptionsPerSubscriber
  )
    return "has been used by this subscriber as many times as it may be";
  return null;
}

/** The discount of an applicable coupon on `priceCents`: never more than the price. Percent rounds half up. */
export function couponDiscount(
  coupon: Pick<CouponTerms, "code" | "title" | "discountType" | "percentOff" | "amountOffCents">,
  priceCents: number,
  currency: string,
): { discountCents: number; detail: DiscountDetail } {
  const raw =
    coupon.discountType === "PERCENT"
      ? roundHalfUp(priceCents * (coupon.percentOff ?? 0), 100)
      : (coupon.amountOffCents ?? 0);
  const discountCents = Math.min(priceCents, Math.max(0, raw));
  return {
    discountCents,
    detail: {
      code: coupon.code,
      discount_type: coupon.discountType === "PERCENT" ? "percent" : "fixed",
      title: coupon.title,
      value: coupon.discountType === "PERCENT" ? (coupon.percentOff ?? 0) : (coupon.amountOffCents ?? 0),
      discounted_price_cents: priceCents - discountCents,
      price_cents: priceCents,
      price_currency: currency.toUpperCase(),
    },
  };
}

// ─── Tax ─────────────────────────────────────────────────────────────────────────────────────

export type TaxRuleTerms = {
  id: number;
  name: string;
  rateBasisPoints: number;
  country: string | null;
  region: string | null;
  inclusive: boolean;
  enabled: boolean;
  deletedAt: Date | null;
};

export type TaxLine = {
  name: string;
  /** The rate in whole basis points (a Stripe Tax rate rounded half up: 8.875 % → 888). */
  rate_basis_points: number;
  /** Stripe Tax: the exact rate, a percentage as Stripe gives it ("8.875"; decision 0038). */
  rate_percentage?: string;
  amount_cents: number;
  inclusive: boolean;
  country: string | null;
  region: string | null;
  /** "stripe": Stripe Tax computed this line (its amount is Stripe's); absent: the account's tax rule. */
  source?: "stripe";
};

type TaxLocation = { country: string | null; region: string | null; postal_code: string | null };

/** a / b rounded half up, for non-negative integers. */
export function roundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Where the buyer is, for tax: `country` an ISO 3166-1 alpha-2 code (a value that is not one, like
 * "India", names no country), `region` the state, `postal_code` (upper case, single spaces; Stripe
 * Tax needs it in some countries). The request's metadata first (what the reader just entered:
 * `address.{country,state,postal_code}` or top-level `country`/`state`/`postal_code`), then the
 * subscriber's.
 */
export function taxLocation(...sources: unknown[]): TaxLocation {
  for (const source of sources) {
    if (!source || typeof source !== "object") continue;
    const o = source as Record<string, unknown>;
    const address = o.address && typeof o.address === "object" ? (o.address as Record<string, unknown>) : {};
    const country = str(address.country) ?? str(o.country);
    if (!country) continue;
    const code = country.trim().toUpperCase();
    return {
      country: /^[A-Z]{2}$/.test(code) ? code : null,
      region: (str(address.state) ?? str(o.state) ?? str(o.region))?.trim().toUpperCase() || null,
      postal_code: (str(address.postal_code) ?? str(o.postal_code))?.trim().replace(/\s+/g, " ").toUpperCase() || null,
    };
  }
  return { country: null, region: null, postal_code: null };
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : typeof v === "number" ? String(v) : null);

/** The enabled rules that apply at `where`: country null (everywhere) or equal; region null or equal. */
export function applicableTaxRules(
  rules: readonly TaxRuleTerms[],
  where: Pick<TaxLocation, "country" | "region">,
): TaxRuleTerms[] {
  return rules
    .filter((r) => r.enabled && !r.deletedAt)
    .filter((r) => r.country === null || (where.country !== null && r.country.toUpperCase() === where.country))
    .filter((r) => r.region === null || (where.region !== null && r.region.toUpperCase() === where.region))
    .sort((a, b) => a.id - b.id);
}

/**
 * Tax on a price (after discount). Inclusive rules are inside `priceCents`: the net is
 * price × 10000 / (10000 + their rates), rounded half up, and each inclusive line is net × rate
 * (the last one takes the rounding remainder, so the lines add up to price − net). Exclusive rules
 * are added: each is net × rate, rounded half up. The total to pay is price + the exclusive lines.
 */
export function computeTax(
  priceCents: number,
  rules: readonly TaxRuleTerms[],
): { netCents: number; taxCents: number; totalCents: number; lines: TaxLine[] } {
  const inclusive = rules.filter((r) => r.inclusive);
  const exclusive = rules.filter((r) => !r.inclusive);
  const inclusiveRate = inclusive.reduce((sum, r) => sum + r.rateBasisPoints, 0);
  const netCents = inclusiveRate ? roundHalfUp(priceCents * 10_000, 10_000 + inclusiveRate) : priceCents;
  const line = (r: TaxRuleTerms, amount: number): TaxLine => ({
    name: r.name,
    rate_basis_points: r.rateBasisPoints,
    amount_cents: amount,
    inclusive: r.inclusive,
    country: r.country,
    region: r.region,
  });
  const lines: TaxLine[] = [];
  let inclusiveLeft = priceCents - netCents;
  inclusive.forEach((r, i) => {
    const amount = i === inclusive.length - 1 ? inclusiveLeft : roundHalfUp(netCents * r.rateBasisPoints, 10_000);
    inclusiveLeft -= amount;
    lines.push(line(r, amount));
  });
  let added = 0;
  for (const r of exclusive) {
    const amount = roundHalfUp(netCents * r.rateBasisPoints, 10_000);
    added += amount;
    lines.push(line(r, amount));
  }
  return { netCents, taxCents: priceCents - netCents + added, totalCents: priceCents + added, lines };
}

// ─── Trial ───────────────────────────────────────────────────────────────────────────────────

type TrialPlan = {
  recurring: boolean;
  trialPeriodEnabled: boolean;
  maxTrialPeriodLength: number | null;
  maxTrialPeriodUnit: DurationUnit | null;
};

type TrialRequest = {
  trial_period?: boolean;
  trial_period_length?: number;
  trial_period_unit?: "days" | "weeks" | "months" | "years";
};

/** Spec §8: the trial authorization charge, 5 currency units (500 cents in a 2-decimal currency). */
export function trialAuthorizationCents(currency: string): number {
  return 5 * 10 ** minorUnits(currency);
}

/**
 * Spec §4.2 rule 6. A recurring plan with its trial enabled gives its maximum trial unless the
 * request asks for a shorter one (length and unit, at most the plan's) or none (`trial_period`
 * false). Asking for a trial on a plan without one is a problem, and so is a longer one.
 *
 * One trial per reader: a reader whose earlier subscription of the account began with a trial
 * (`earlierTrialAt`, when it began) gets none and pays from the start; asking for one then is a
 * problem that says so.
 */
export function trialTerms(
  plan: TrialPlan,
  req: TrialRequest,
  now: Date,
  earlierTrialAt: Date | null = null,
): { trial: { length: number; unit: DurationUnit } | null; problems: ErrorDetail[] } {
  const asked = req.trial_period_length !== undefined || req.trial_period_unit !== undefined;
  const offered =
    plan.recurring && plan.trialPeriodEnabled && plan.maxTrialPeriodLength !== null && plan.maxTrialPeriodUnit !== null;
  if (req.trial_period === false) return { trial: null, problems: [] };
  if (!offered) {
    if (asked || req.trial_period === true)
      return { trial: null, problems: [{ field: "subscription.trial_period", issue: "this plan has no trial" }] };
    return { trial: null, problems: [] };
  }
  if (earlierTrialAt) {
    if (asked || req.trial_period === true) return { trial: null, problems: [hadTrialProblem(earlierTrialAt)] };
    return { trial: null, problems: [] };
  }
  const max = { length: plan.maxTrialPeriodLength!, unit: plan.maxTrialPeriodUnit! };
  if (!asked) return { trial: max, problems: [] };
  if (req.trial_period_length === undefined || req.trial_period_unit === undefined)
    return {
      trial: null,
      problems: [
        {
          field:
            req.trial_period_length === undefined
              ? "subscription.trial_period_length"
              : "subscription.trial_period_unit",
          issue: "trial_period_length and trial_period_unit go together",
        },
      ],
    };
  const wanted = { length: req.trial_period_length, unit: req.trial_period_unit.toUpperCase() as DurationUnit };
  const end = addDuration(now, wanted.length, wanted.unit)!;
  const maxEnd = addDuration(now, max.length, max.unit)!;
  if (end.getTime() > maxEnd.getTime())
    return {
      trial: null,
      problems: [
        {
          field: "subscription.trial_period_length",
          issue: `must be at most the plan's trial (${max.length} ${max.unit.toLowerCase()})`,
        },
      ],
    };
  return { trial: wanted, problems: [] };
}

/**
 * A second trial asked for: one trial per reader, and when theirs began, in the one format with the
 * zone. UTC: an API answer goes to the publisher's server and to the reader's browser alike, and
 * neither's zone is known here.
 */
export function hadTrialProblem(earlierTrialAt: Date): ErrorDetail {
  return {
    field: "subscription.trial_period",
    issue: `is one per reader: this reader's trial began ${formatInstant(earlierTrialAt, "UTC")}`,
  };
}

// ─── Campaigns ───────────────────────────────────────────────────────────────────────────────

/**
 * A campaign contribution's amount: what the reader chose (at least the plan's price; the price
 * when nothing was chosen). Problems: below the price, or the campaign's target already reached
 * while the group enforces it (target_amount_validation_enabled).
 */
export function contributionAmount(args: {
  chosenCents: number | undefined;
  priceCents: number;
  group: { targetAmountCents: number | null; targetAmountValidationEnabled: boolean; collectedAmountCents: number };
}): { amountCents: number; problems: ErrorDetail[] } {
  const amountCents = args.chosenCents ?? args.priceCents;
  const problems: ErrorDetail[] = [];
  if (amountCents < args.priceCents || amountCents <= 0)
    problems.push({
      field: "subscription.payment.amount_cents",
      issue: `a contribution must be at least ${Math.max(args.priceCents, 1)} cents`,
    });
  const { targetAmountCents, targetAmountValidationEnabled, collectedAmountCents } = args.group;
  if (targetAmountValidationEnabled && targetAmountCents !== null && collectedAmountCents >= targetAmountCents)
    problems.push({ field: "subscription.subscription_plan_id", issue: "the campaign has reached its target" });
  return { amountCents, problems };
}
