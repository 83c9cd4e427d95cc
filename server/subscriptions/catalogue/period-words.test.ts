/** A plan's period in words (catalogue.schema.ts periodInWords), as the dashboard and the paywall say it. */
import { describe, expect, it } from "vitest";

import { periodInWords, trialAuthorizationInWords, trialInWords } from "./catalogue.schema";

describe("periodInWords", () => {
  it("says one period in the singular and several in the plural, never '1 months' or 'per 3 month'", () => {
    expect(periodInWords(1, "months")).toBe("1 month");
    expect(periodInWords(3, "months")).toBe("3 months");
    expect(periodInWords(1, "months", { per: true })).toBe("per month");
    expect(periodInWords(3, "months", { per: true })).toBe("per 3 months");
    expect(periodInWords(2, "weeks", { per: true })).toBe("per 2 weeks");
    expect(periodInWords(1, "years", { capital: true })).toBe("1 year");
    expect(periodInWords(1, "lifetime")).toBe("lifetime");
    expect(periodInWords(1, "lifetime", { capital: true })).toBe("Lifetime");
    expect(periodInWords(1, "lifetime", { per: true })).toBe("for life");
  });
});

describe("trialInWords", () => {
  const plan = {
    recurring: true,
    trial_period_enabled: true,
    max_trial_period_length: 14,
    max_trial_period_unit: "days",
  };
  it("says a plan's trial before its price, or nothing when the plan offers none", () => {
    expect(trialInWords(plan)).toBe("14 days free");
    expect(trialInWords({ ...plan, max_trial_period_length: 1, max_trial_period_unit: "MONTHS" })).toBe("1 month free");
    expect(trialInWords({ ...plan, trial_period_enabled: false })).toBeNull();
    expect(trialInWords({ ...plan, recurring: false })).toBeNull();
    expect(trialInWords({ ...plan, max_trial_period_length: null })).toBeNull();
    expect(trialInWords({ recurring: true })).toBeNull();
  });

  it("explains the authorization charged today and when the first payment comes", () => {
    expect(trialAuthorizationInWords("5.00 USD", "9.00 USD", 14, "days")).toBe(
      "Today: 5.00 USD to check your card, refunded at once; it is not a payment. " +
        "Your first payment, 9.00 USD, is taken when the 14-day trial ends.",
    );
    expect(trialAuthorizationInWords("5 JPY", "900 JPY", 1, "MONTHS")).toContain("the 1-month trial ends");
  });
});
