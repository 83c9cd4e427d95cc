/**
 * The catalogue's rules that weigh one field against another. Pure: each takes the whole record
 * (a create's input, or an update merged over the stored row) and lists what is wrong, so a
 * create and an update can never disagree. A service turns a non-empty list into a 422.
 */
import { ownValue } from "@/server/own-keys";

import { AppError, type ErrorDetail } from "../../errors";
import type { TCouponFields, TPlanFields, TTaxRuleFields } from "./catalogue.schema";

type GroupRecord = {
  subscriptionType: string;
  currency: string | null;
  targetAmountCents: number | null;
};

export function groupProblems(group: GroupRecord): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (group.subscriptionType === "campaign") {
    if (!group.currency) problems.push({ field: "currency", issue: "is required for a campaign" });
    if (group.targetAmountCents === null || group.targetAmountCents <= 0)
      problems.push({ field: "targetAmountCents", issue: "must be more than 0 for a campaign" });
  } else if (group.targetAmountCents !== null) {
    problems.push({ field: "targetAmountCents", issue: "is only for campaign groups" });
  }
  return problems;
}

type PlanRecord = Pick<
  TPlanFields,
  | "durationUnit"
  | "durationLength"
  | "recurring"
  | "trialPeriodEnabled"
  | "maxTrialPeriodLength"
  | "maxTrialPeriodUnit"
  | "userLimit"
  | "chargeRetryDays"
  | "gracePeriodDays"
  | "priceCurrency"
  | "priceCents"
  | "prices"
>;

export function planProblems(plan: PlanRecord, groupType: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (plan.durationUnit === "lifetime" && plan.recurring)
    problems.push({ field: "recurring", issue: "a lifetime plan cannot be recurring" });
  if (plan.durationUnit === "lifetime" && plan.durationLength !== 1)
    problems.push({ field: "durationLength", issue: "must be 1 for a lifetime plan" });
  if (plan.trialPeriodEnabled) {
    if (!plan.recurring) problems.push({ field: "trialPeriodEnabled", issue: "only recurring plans have a trial" });
    if (plan.maxTrialPeriodLength === null)
      problems.push({ field: "maxTrialPeriodLength", issue: "is required when the trial is enabled" });
    if (plan.maxTrialPeriodUnit === null)
      problems.push({ field: "maxTrialPeriodUnit", issue: "is required when the trial is enabled" });
  }
  if (plan.userLimit !== null && groupType !== "group_access")
    problems.push({ field: "userLimit", issue: "is only for plans of group_access groups" });
  if (plan.userLimit === null && groupType === "group_access")
    problems.push({ field: "userLimit", issue: "is required for a group_access plan" });
  const retries = plan.chargeRetryDays;
  if (retries.some((d, i) => i > 0 && d <= retries[i - 1]!))
    problems.push({ field: "chargeRetryDays", issue: "must be in increasing order, each day once" });
  if (retries.some((d) => d >= plan.gracePeriodDays))
    problems.push({ field: "chargeRetryDays", issue: "must each come before the grace period ends" });
  const same = ownValue(plan.prices, plan.priceCurrency);
  if (same && same.amount_cents !== plan.priceCents)
    problems.push({ field: "prices", issue: `differs from the default price in ${plan.priceCurrency}` });
  return problems;
}

/** The plan's prices with its default price in them: {currency: {amount_cents}}. */
export function allPrices(plan: Pick<TPlanFields, "priceCents" | "priceCurrency" | "prices">) {
  return { ...plan.prices, [plan.priceCurrency]: { amount_cents: plan.priceCents } };
}

type CouponRecord = Pick<
  TCouponFields,
  | "discountType"
  | "percentOff"
  | "amountOffCents"
  | "amountCurrency"
  | "validFrom"
  | "validUntil"
  | "maxRedemptions"
  | "maxRedemptionsPerSubscriber"
>;

export function couponProblems(coupon: CouponRecord): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (coupon.discountType === "percent") {
    if (coupon.percentOff === null || coupon.percentOff < 1 || coupon.percentOff > 100)
      problems.push({ field: "percentOff", issue: "must be a whole number from 1 to 100" });
    if (coupon.amountOffCents !== null)
      problems.push({ field: "amountOffCents", issue: "is only for fixed discounts" });
  } else {
    if (coupon.amountOffCents === null || coupon.amountOffCents <= 0)
      problems.push({ field: "amountOffCents", issue: "must be more than 0" });
    if (!coupon.amountCurrency) problems.push({ field: "amountCurrency", issue: "is required for a fixed discount" });
    if (coupon.percentOff !== null) problems.push({ field: "percentOff", issue: "is only for percent discounts" });
  }
  if (coupon.validUntil && coupon.validUntil.getTime() <= coupon.validFrom.getTime())
    problems.push({ field: "validUntil", issue: "must be after validFrom" });
  if (
    coupon.maxRedemptions !== null &&
    coupon.maxRedemptionsPerSubscriber !== null &&
    coupon.maxRedemptionsPerSubscriber > coupon.maxRedemptions
  )
    problems.push({ field: "maxRedemptionsPerSubscriber", issue: "must not be more than maxRedemptions" });
  return problems;
}

export function taxRuleProblems(rule: Pick<TTaxRuleFields, "country" | "region">): ErrorDetail[] {
  return rule.region && !rule.country ? [{ field: "region", issue: "needs a country" }] : [];
}

/** Throw the 422 for a non-empty list. */
export function assertNoProblems(problems: ErrorDetail[], what: string): void {
  if (problems.length) throw new AppError("UNPROCESSABLE", `The ${what} breaks a rule.`, { details: problems });
}
