/**
 * The arithmetic of a plan switch (interface-spec §4.3 switch_plan; docs/subscriptions.md "Plan
 * switching"), pure so it can be tested on its edges:
 *
 *   unused  = (period end − now) / (period end − period start), clamped to [0, 1]
 *   credit  = floor(unused × amount paid)             (integer cents, rounded for the publisher)
 *   charge  = max(0, target price − credit)
 *
 * "amount paid" is what the reader paid for the current period (payment_amount_cents: after any
 * coupon discount, tax included). The target price is the target plan's price in the
 * subscription's currency; a plan without a price in that currency cannot be switched to.
 */
import type { DurationUnit } from "../../generated/prisma/enums";
import { planPriceIn, type PricedPlan } from "../checkout/pricing";

export type SwitchType = "upgrade" | "crossgrade" | "downgrade";

/** Rough days of a plan duration, to compare prices per day (lifetime: never compared). */
const DAYS_PER_UNIT = { DAYS: 1, WEEKS: 7, MONTHS: 30.436875, YEARS: 365.2425 } as const;

/** A price per day, or null when not comparable (lifetime, or no length). */
export function pricePerDay(cents: number, length: number, unit: DurationUnit): number | null {
  if (unit === "LIFETIME" || length <= 0) return null;
  return cents / (length * DAYS_PER_UNIT[unit]);
}

/**
 * What a switch from the current price per day to the target's is: dearer per day an upgrade,
 * cheaper a downgrade, the same (within a cent a month) or not comparable a crossgrade.
 */
export function classifySwitch(current: number | null, target: number | null): SwitchType {
  const tolerance = 1 / 30;
  if (current === null || target === null || Math.abs(target - current) < tolerance) return "crossgrade";
  return target > current ? "upgrade" : "downgrade";
}

/** The target plan's price in `currency`, or null (422 for the caller: another currency only). */
export function targetPriceIn(plan: PricedPlan, currency: string): number | null {
  return planPriceIn(plan, currency)?.amountCents ?? null;
}

/**
 * The prorated charge of switching now. A period without an end (lifetime) or not yet started has
 * no unused part to credit by time: credit 0 when it never ends, all of it when it has not begun.
 */
export function proratedCharge(args: {
  periodStart: Date;
  periodEnd: Date | null;
  now: Date;
  paidCents: number;
  targetPriceCents: number;
}): { unusedFraction: number; creditCents: number; chargeCents: number } {
  const { periodStart, periodEnd, now, paidCents, targetPriceCents } = args;
  let unused: number;
  if (periodEnd === null) unused = 0;
  else {
    const total = periodEnd.getTime() - periodStart.getTime();
    unused = total <= 0 ? 0 : (periodEnd.getTime() - now.getTime()) / total;
  }
  unused = Math.min(1, Math.max(0, unused));
  const creditCents = Math.floor(unused * Math.max(0, paidCents));
  return { unusedFraction: unused, creditCents, chargeCents: Math.max(0, targetPriceCents - creditCents) };
}

/** A plan's billing interval. */
export type Interval = { length: number; unit: DurationUnit };

const sameInterval = (a: Interval, b: Interval) => a.length === b.length && a.unit === b.unit;

/**
 * A recurring subscription's switch applied now (group with proration on; the gateway charges a
 * stored payment method), as Stripe Billing prorates a subscription update:
 *
 *   unused  = (period end − now) / (period end − period start), clamped to [0, 1]
 *   credit  = floor(unused × amount paid for the period)       (rounded for the publisher)
 *
 * - Same billing interval: the period stays. The new plan costs, for the rest of it,
 *   `rest = ceil(unused × target price)` (rounded for the publisher). `net = rest − credit`: above 0
 *   the reader pays it now (an upgrade); below 0 it becomes a credit balance taken off the next
 *   charges (a downgrade: never refunded in cash); the next charge, at the period end, is the
 *   target's full price.
 * - Another billing interval (monthly → yearly): the billing cycle resets, like Stripe's
 *   `billing_cycle_anchor=now`: a new period of the target's interval starts now and is paid now,
 *   `net = target price − credit`; a credit above the price is carried as a balance.
 *
 * Returns integer cents only: what is charged now, what is carried as credit, and the new
 * period's start when the cycle resets (null: the period stays).
 */
export function proratedRecurringSwitch(args: {
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  paidCents: number;
  targetPriceCents: number;
  current: Interval;
  target: Interval;
}): {
  unusedFraction: number;
  creditCents: number;
  restCents: number;
  chargeCents: number;
  carryCents: number;
  resetsCycle: boolean;
} {
  const { periodStart, periodEnd, now, paidCents, targetPriceCents } = args;
  const total = periodEnd.getTime() - periodStart.getTime();
  const unused = total <= 0 ? 0 : Math.min(1, Math.max(0, (periodEnd.getTime() - now.getTime()) / total));
  const creditCents = Math.floor(unused * Math.max(0, paidCents));
  const resetsCycle = !sameInterval(args.current, args.target);
  const price = Math.max(0, targetPriceCents);
  // Math.ceil of a product like 0.5 × 1200 may land a hair above the integer: round to 1e-9 first.
  const restCents = resetsCycle ? price : Math.ceil(Math.round(unused * price * 1e9) / 1e9);
  const net = restCents - creditCents;
  return {
    unusedFraction: unused,
    creditCents,
    restCents,
    chargeCents: Math.max(0, net),
    carryCents: Math.max(0, -net),
    resetsCycle,
  };
}

/**
 * What a renewal charge of `amountCents` takes from a credit balance of `creditCents`: the charge
 * is lowered by the credit, never below 0, and the rest of the credit stays for the next charge.
 */
export function applyCredit(amountCents: number, creditCents: number): { chargeCents: number; usedCents: number } {
  const used = Math.max(0, Math.min(creditCents, amountCents));
  return { chargeCents: amountCents - used, usedCents: used };
}
