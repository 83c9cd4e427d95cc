import { describe, expect, it } from "vitest";

import { couponProblems, groupProblems, planProblems, taxRuleProblems } from "./catalogue-rules";
import { ZUpdatePlanInput } from "./catalogue.schema";

const plan = {
  durationUnit: "months" as const,
  durationLength: 1,
  recurring: true,
  trialPeriodEnabled: false,
  maxTrialPeriodLength: null,
  maxTrialPeriodUnit: null,
  userLimit: null,
  chargeRetryDays: [] as number[],
  gracePeriodDays: 7,
  priceCents: 500,
  priceCurrency: "EUR",
  prices: {},
};
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe("catalogue rules", () => {
  it("plans", () => {
    expect(planProblems(plan, "standard")).toEqual([]);
    expect(fields(planProblems({ ...plan, durationUnit: "lifetime" }, "standard"))).toEqual(["recurring"]);
    expect(
      fields(planProblems({ ...plan, durationUnit: "lifetime", recurring: false, durationLength: 2 }, "standard")),
    ).toEqual(["durationLength"]);
    expect(fields(planProblems({ ...plan, recurring: false, trialPeriodEnabled: true }, "standard"))).toEqual([
      "trialPeriodEnabled",
      "maxTrialPeriodLength",
      "maxTrialPeriodUnit",
    ]);
    expect(
      planProblems(
        { ...plan, trialPeriodEnabled: true, maxTrialPeriodLength: 7, maxTrialPeriodUnit: "days" },
        "standard",
      ),
    ).toEqual([]);
    expect(fields(planProblems({ ...plan, userLimit: 5 }, "standard"))).toEqual(["userLimit"]);
    expect(fields(planProblems(plan, "group_access"))).toEqual(["userLimit"]);
    expect(planProblems({ ...plan, userLimit: 5 }, "group_access")).toEqual([]);
    expect(fields(planProblems({ ...plan, prices: { EUR: { amount_cents: 1 } } }, "standard"))).toEqual(["prices"]);
    // Dunning: retries in increasing order, each before the grace period's end.
    expect(planProblems({ ...plan, chargeRetryDays: [1, 3, 5], gracePeriodDays: 7 }, "standard")).toEqual([]);
    expect(fields(planProblems({ ...plan, chargeRetryDays: [3, 1] }, "standard"))).toEqual(["chargeRetryDays"]);
    expect(fields(planProblems({ ...plan, chargeRetryDays: [1, 1] }, "standard"))).toEqual(["chargeRetryDays"]);
    expect(fields(planProblems({ ...plan, chargeRetryDays: [1, 7], gracePeriodDays: 7 }, "standard"))).toEqual([
      "chargeRetryDays",
    ]);
    expect(fields(planProblems({ ...plan, chargeRetryDays: [1], gracePeriodDays: 0 }, "standard"))).toEqual([
      "chargeRetryDays",
    ]);
  });

  it("groups", () => {
    expect(groupProblems({ subscriptionType: "campaign", currency: "EUR", targetAmountCents: 1 })).toEqual([]);
    expect(fields(groupProblems({ subscriptionType: "campaign", currency: null, targetAmountCents: 0 }))).toEqual([
      "currency",
      "targetAmountCents",
    ]);
    expect(fields(groupProblems({ subscriptionType: "standard", currency: null, targetAmountCents: 10 }))).toEqual([
      "targetAmountCents",
    ]);
  });

  it("coupons", () => {
    const coupon = {
      discountType: "percent" as const,
      percentOff: 10,
      amountOffCents: null,
      amountCurrency: null,
      validFrom: new Date("2026-01-01"),
      validUntil: null,
      maxRedemptions: null,
      maxRedemptionsPerSubscriber: null,
    };
    expect(couponProblems(coupon)).toEqual([]);
    expect(fields(couponProblems({ ...coupon, percentOff: 0 }))).toEqual(["percentOff"]);
    expect(fields(couponProblems({ ...coupon, percentOff: 101 }))).toEqual(["percentOff"]);
    expect(couponProblems({ ...coupon, percentOff: 100 })).toEqual([]);
    expect(fields(couponProblems({ ...coupon, discountType: "fixed", percentOff: null }))).toEqual([
      "amountOffCents",
      "amountCurrency",
    ]);
    expect(
      couponProblems({
        ...coupon,
        discountType: "fixed",
        percentOff: null,
        amountOffCents: 100,
        amountCurrency: "EUR",
      }),
    ).toEqual([]);
    expect(fields(couponProblems({ ...coupon, validUntil: new Date("2026-01-01") }))).toEqual(["validUntil"]);
    expect(fields(couponProblems({ ...coupon, maxRedemptions: 1, maxRedemptionsPerSubscriber: 2 }))).toEqual([
      "maxRedemptionsPerSubscriber",
    ]);
  });

  it("tax rules", () => {
    expect(fields(taxRuleProblems({ country: null, region: "KA" }))).toEqual(["region"]);
    expect(taxRuleProblems({ country: "IN", region: "KA" })).toEqual([]);
  });

  it("an update leaves out what it does not send (no create defaults)", () => {
    expect(ZUpdatePlanInput.parse({ id: 1, title: "x" })).toEqual({ id: 1, title: "x" });
  });
});
