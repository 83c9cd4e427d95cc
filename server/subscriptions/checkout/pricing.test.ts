import { describe, expect, it } from "vitest";

import {
  applicableTaxRules,
  computeTax,
  contributionAmount,
  couponDiscount,
  couponIssue,
  planPriceIn,
  roundHalfUp,
  taxLocation,
  trialAuthorizationCents,
  trialTerms,
  type CouponTerms,
  type TaxRuleTerms,
} from "./pricing";

const now = new Date("2026-11-23T12:00:00Z");

describe("planPriceIn", () => {
  const plan = {
    priceCents: 999,
    priceCurrency: "USD",
    prices: { EUR: { amount_cents: 899 }, INR: { amount_cents: 19900 } },
  };
  it("answers the default price, a listed currency (any case), and null for a currency the plan does not sell in", () => {
    expect(planPriceIn(plan)).toEqual({ amountCents: 999, currency: "USD" });
    expect(planPriceIn(plan, "eur")).toEqual({ amountCents: 899, currency: "EUR" });
    expect(planPriceIn(plan, "GBP")).toBeNull();
    expect(planPriceIn({ ...plan, prices: { GBP: { amount_cents: 1.5 } } }, "GBP")).toBeNull();
  });
});

const coupon = (over: Partial<CouponTerms> = {}): CouponTerms => ({
  id: 1,
  code: "WELCOME20",
  title: "Welcome",
  discountType: "PERCENT",
  percentOff: 20,
  amountOffCents: null,
  amountCurrency: null,
  validFrom: new Date("2026-01-01T00:00:00Z"),
  validUntil: null,
  maxRedemptions: null,
  maxRedemptionsPerSubscriber: null,
  redemptionsCount: 0,
  planIds: [],
  groupIds: [],
  enabled: true,
  deletedAt: null,
  ...over,
});
const use = { planId: 5, groupId: 9, currency: "USD", now, subscriberRedemptions: 0 };

describe("coupons", () => {
  it("applies a valid coupon, and names why not otherwise", () => {
    expect(couponIssue(coupon(), use)).toBeNull();
    expect(couponIssue(coupon({ enabled: false }), use)).toBe("is not active");
    expect(couponIssue(coupon({ deletedAt: now }), use)).toBe("is not active");
    expect(couponIssue(coupon({ validFrom: new Date("2026-12-01T00:00:00Z") }), use)).toBe("is not valid yet");
    expect(couponIssue(coupon({ validUntil: new Date("2026-11-23T11:59:59Z") }), use)).toBe("has expired");
    expect(couponIssue(coupon({ validUntil: now }), use)).toBeNull();
    expect(couponIssue(coupon({ planIds: [6] }), use)).toBe("does not apply to this plan");
    expect(couponIssue(coupon({ planIds: [5] }), use)).toBeNull();
    expect(couponIssue(coupon({ groupIds: [9] }), use)).toBeNull();
    expect(couponIssue(coupon({ planIds: [6], groupIds: [9] }), use)).toBeNull();
    expect(couponIssue(coupon({ maxRedemptions: 3, redemptionsCount: 3 }), use)).toMatch(/as many times/);
    expect(couponIssue(coupon({ maxRedemptions: 3, redemptionsCount: 2 }), use)).toBeNull();
    expect(couponIssue(coupon({ maxRedemptionsPerSubscriber: 1 }), { ...use, subscriberRedemptions: 1 })).toMatch(
      /this subscriber/,
    );
    expect(couponIssue(coupon({ maxRedemptionsPerSubscriber: 1 }), { ...use, subscriberRedemptions: null })).toBeNull();
  });

  it("refuses a fixed coupon in another currency", () => {
    const fixed = coupon({ discountType: "FIXED", percentOff: null, amountOffCents: 300, amountCurrency: "EUR" });
    expect(couponIssue(fixed, use)).toMatch(/EUR, not USD/);
    expect(couponIssue(fixed, { ...use, currency: "eur" })).toBeNull();
  });

  it("computes the discount detail: percent rounded half up, fixed capped at the price", () => {
    expect(couponDiscount(coupon(), 999, "usd")).toEqual({
      discountCents: 200,
      detail: {
        code: "WELCOME20",
        discount_type: "percent",
        title: "Welcome",
        value: 20,
        discounted_price_cents: 799,
        price_cents: 999,
        price_currency: "USD",
      },
    });
    expect(couponDiscount(coupon({ percentOff: 15 }), 990, "USD").discountCents).toBe(149); // 148.5 → 149
    expect(couponDiscount(coupon({ percentOff: 100 }), 990, "USD").detail).toMatchObject({ discounted_price_cents: 0 });
    const fixed = coupon({ discountType: "FIXED", percentOff: null, amountOffCents: 5000, amountCurrency: "USD" });
    expect(couponDiscount(fixed, 999, "USD")).toMatchObject({
      discountCents: 999,
      detail: { discount_type: "fixed", value: 5000, discounted_price_cents: 0 },
    });
  });
});

const rule = (over: Partial<TaxRuleTerms>): TaxRuleTerms => ({
  id: 1,
  name: "VAT",
  rateBasisPoints: 2000,
  country: null,
  region: null,
  inclusive: false,
  enabled: true,
  deletedAt: null,
  ...over,
});

describe("tax", () => {
  it("rounds half up", () => {
    expect(roundHalfUp(5, 2)).toBe(3);
    expect(roundHalfUp(4, 2)).toBe(2);
    expect(roundHalfUp(149, 100)).toBe(1);
    expect(roundHalfUp(150, 100)).toBe(2);
  });

  it("finds the location in the request's metadata first, then the subscriber's; only alpha-2 countries", () => {
    const at = (country: string | null, region: string | null, postal_code: string | null = null) => ({
      country,
      region,
      postal_code,
    });
    expect(taxLocation({ address: { country: "in", state: "ka" } }, { address: { country: "US" } })).toEqual(
      at("IN", "KA"),
    );
    expect(taxLocation({}, null, { address: { country: "US", state: "NY" } })).toEqual(at("US", "NY"));
    expect(taxLocation({ country: "DE" })).toEqual(at("DE", null));
    expect(taxLocation({ address: { country: "India" } })).toEqual(at(null, null));
    expect(taxLocation(undefined)).toEqual(at(null, null));
    // The postal code, for Stripe Tax: trimmed, single spaces, upper case; top-level too.
    expect(taxLocation({ address: { country: "us", state: "ny", postal_code: " 10001 " } })).toEqual(
      at("US", "NY", "10001"),
    );
    expect(taxLocation({ country: "GB", postal_code: "sw1a   1aa" })).toEqual(at("GB", null, "SW1A 1AA"));
    expect(taxLocation({ address: { country: "US", postal_code: 10001 } })).toEqual(at("US", null, "10001"));
  });

  it("applies enabled rules of everywhere, the country and the region", () => {
    const rules = [
      rule({ id: 1, name: "Everywhere", country: null }),
      rule({ id: 2, name: "India", country: "IN" }),
      rule({ id: 3, name: "Karnataka", country: "IN", region: "KA" }),
      rule({ id: 4, name: "Off", country: "IN", enabled: false }),
      rule({ id: 5, name: "Gone", country: "IN", deletedAt: now }),
      rule({ id: 6, name: "US", country: "US" }),
    ];
    expect(applicableTaxRules(rules, { country: "IN", region: "KA" }).map((r) => r.name)).toEqual([
      "Everywhere",
      "India",
      "Karnataka",
    ]);
    expect(applicableTaxRules(rules, { country: "IN", region: null }).map((r) => r.name)).toEqual([
      "Everywhere",
      "India",
    ]);
    expect(applicableTaxRules(rules, { country: null, region: null }).map((r) => r.name)).toEqual(["Everywhere"]);
  });

  it("adds exclusive tax, rounded half up per rule", () => {
    const t = computeTax(999, [rule({ rateBasisPoints: 1800 })]);
    expect(t).toMatchObject({ netCents: 999, taxCents: 180, totalCents: 1179 }); // 179.82 → 180
    expect(t.lines).toEqual([
      { name: "VAT", rate_basis_points: 1800, amount_cents: 180, inclusive: false, country: null, region: null },
    ]);
    const two = computeTax(1000, [
      rule({ id: 1, rateBasisPoints: 900 }),
      rule({ id: 2, name: "SGST", rateBasisPoints: 900 }),
    ]);
    expect(two).toMatchObject({ taxCents: 180, totalCents: 1180 });
  });

  it("takes inclusive tax out of the price: the total stays the price and the lines add up", () => {
    const t = computeTax(1180, [rule({ rateBasisPoints: 1800, inclusive: true })]);
    expect(t).toMatchObject({ netCents: 1000, taxCents: 180, totalCents: 1180 });
    const split = computeTax(1000, [
      rule({ id: 1, name: "CGST", rateBasisPoints: 900, inclusive: true }),
      rule({ id: 2, name: "SGST", rateBasisPoints: 900, inclusive: true }),
    ]);
    expect(split.netCents).toBe(847); // 1000 / 1.18 = 847.46
    expect(split.lines.map((l) => l.amount_cents)).toEqual([76, 77]);
    expect(split.totalCents).toBe(1000);
    expect(split.taxCents).toBe(153);
  });

  it("mixes inclusive and exclusive rules on the same net; no rules is no tax", () => {
    const t = computeTax(1100, [
      rule({ id: 1, rateBasisPoints: 1000, inclusive: true }),
      rule({ id: 2, rateBasisPoints: 500 }),
    ]);
    expect(t).toMatchObject({ netCents: 1000, taxCents: 150, totalCents: 1150 });
    expect(computeTax(999, [])).toEqual({ netCents: 999, taxCents: 0, totalCents: 999, lines: [] });
  });
});

describe("trial", () => {
  const plan = {
    recurring: true,
    trialPeriodEnabled: true,
    maxTrialPeriodLength: 14,
    maxTrialPeriodUnit: "DAYS" as const,
  };
  it("gives the plan's trial by default, a shorter one on request, none with trial_period false", () => {
    expect(trialTerms(plan, {}, now)).toEqual({ trial: { length: 14, unit: "DAYS" }, problems: [] });
    expect(trialTerms(plan, { trial_period_length: 7, trial_period_unit: "days" }, now).trial).toEqual({
      length: 7,
      unit: "DAYS",
    });
    expect(trialTerms(plan, { trial_period_length: 2, trial_period_unit: "weeks" }, now).trial).toEqual({
      length: 2,
      unit: "WEEKS",
    });
    expect(trialTerms(plan, { trial_period: false }, now)).toEqual({ trial: null, problems: [] });
  });

  it("refuses a longer trial, a half-given one, and a trial on a plan without one", () => {
    expect(trialTerms(plan, { trial_period_length: 15, trial_period_unit: "days" }, now).problems[0]).toMatchObject({
      field: "subscription.trial_period_length",
    });
    expect(trialTerms(plan, { trial_period_length: 1, trial_period_unit: "months" }, now).problems).toHaveLength(1);
    expect(trialTerms(plan, { trial_period_length: 3 }, now).problems[0]!.field).toBe("subscription.trial_period_unit");
    const none = { ...plan, trialPeriodEnabled: false };
    expect(trialTerms(none, {}, now)).toEqual({ trial: null, problems: [] });
    expect(trialTerms(none, { trial_period: true }, now).problems).toHaveLength(1);
    expect(
      trialTerms({ ...plan, recurring: false }, { trial_period_length: 3, trial_period_unit: "days" }, now).problems,
    ).toHaveLength(1);
  });

  it("gives a reader who had a trial none, and refuses one asked for, saying when theirs began", () => {
    const earlier = new Date("2026-03-02T10:00:00Z");
    expect(trialTerms(plan, {}, now, earlier)).toEqual({ trial: null, problems: [] });
    expect(trialTerms(plan, { trial_period: false }, now, earlier)).toEqual({ trial: null, problems: [] });
    for (const asked of [{ trial_period: true }, { trial_period_length: 7, trial_period_unit: "days" as const }])
      expect(trialTerms(plan, asked, now, earlier)).toEqual({
        trial: null,
        problems: [
          {
            field: "subscription.trial_period",
            issue: "is one per reader: this reader's trial began 2 Mar 2026, 10:00 UTC",
          },
        ],
      });
  });

  it("authorizes 5 currency units", () => {
    expect(trialAuthorizationCents("USD")).toBe(500);
    expect(trialAuthorizationCents("JPY")).toBe(5);
    expect(trialAuthorizationCents("KWD")).toBe(5000);
  });
});

describe("campaign contributions", () => {
  const group = { targetAmountCents: 100_000, targetAmountValidationEnabled: true, collectedAmountCents: 0 };
  it("takes the reader's amount when at least the price, the price when none is chosen", () => {
    expect(contributionAmount({ chosenCents: 2500, priceCents: 500, group })).toEqual({
      amountCents: 2500,
      problems: [],
    });
    expect(contributionAmount({ chosenCents: undefined, priceCents: 500, group })).toEqual({
      amountCents: 500,
      problems: [],
    });
    expect(contributionAmount({ chosenCents: 400, priceCents: 500, group }).problems).toHaveLength(1);
    expect(contributionAmount({ chosenCents: 0, priceCents: 0, group }).problems).toHaveLength(1);
  });

  it("refuses once the target is reached when the group enforces it", () => {
    const reached = { ...group, collectedAmountCents: 100_000 };
    expect(contributionAmount({ chosenCents: 500, priceCents: 500, group: reached }).problems[0]!.issue).toMatch(
      /target/,
    );
    expect(
      contributionAmount({
        chosenCents: 500,
        priceCents: 500,
        group: { ...reached, targetAmountValidationEnabled: false },
      }).problems,
    ).toEqual([]);
  });
});
