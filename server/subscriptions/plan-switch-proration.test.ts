import { describe, expect, it } from "vitest";

import { classifySwitch, pricePerDay, proratedCharge, targetPriceIn } from "./plan-switch-proration";

const at = (iso: string) => new Date(iso);
const june = { periodStart: at("2026-06-01T00:00:00Z"), periodEnd: at("2026-07-01T00:00:00Z") };

describe("proratedCharge", () => {
  it("credits the unused part of what was paid and charges the rest of the target price", () => {
    // 10 of 30 days used: 2/3 of 1000 unused → credit 666 (floored), charge 2000 − 666.
    const r = proratedCharge({ ...june, now: at("2026-06-11T00:00:00Z"), paidCents: 1000, targetPriceCents: 2000 });
    expect(r.creditCents).toBe(666);
    expect(r.chargeCents).toBe(1334);
    expect(Number.isInteger(r.chargeCents)).toBe(true);
  });

  it("on the last day credits almost nothing; at or after the end nothing", () => {
    const lastDay = proratedCharge({
      ...june,
      now: at("2026-06-30T12:00:00Z"),
      paidCents: 3000,
      targetPriceCents: 5000,
    });
    expect(lastDay.creditCents).toBe(50); // 12 h of 30 days = 1/60 of 3000
    expect(lastDay.chargeCents).toBe(4950);
    const ended = proratedCharge({ ...june, now: at("2026-07-02T00:00:00Z"), paidCents: 3000, targetPriceCents: 5000 });
    expect(ended).toMatchObject({ unusedFraction: 0, creditCents: 0, chargeCents: 5000 });
  });

  it("a free plan: nothing paid, nothing credited; a switch to a free plan costs nothing", () => {
    const fromFree = proratedCharge({ ...june, now: at("2026-06-16T00:00:00Z"), paidCents: 0, targetPriceCents: 1000 });
    expect(fromFree).toMatchObject({ creditCents: 0, chargeCents: 1000 });
    const toFree = proratedCharge({ ...june, now: at("2026-06-16T00:00:00Z"), paidCents: 1000, targetPriceCents: 0 });
    expect(toFree.chargeCents).toBe(0);
  });

  it("credits what was paid after a coupon, not the list price, and never charges below 0", () => {
    // List price 2000, paid 1500 with a 25% coupon; half the period unused → credit 750.
    const r = proratedCharge({ ...june, now: at("2026-06-16T00:00:00Z"), paidCents: 1500, targetPriceCents: 600 });
    expect(r.creditCents).toBe(750);
    expect(r.chargeCents).toBe(0);
  });

  it("a period not begun credits everything; a lifetime one nothing", () => {
    expect(
      proratedCharge({ ...june, now: at("2026-05-01T00:00:00Z"), paidCents: 1000, targetPriceCents: 2500 }).chargeCents,
    ).toBe(1500);
    expect(
      proratedCharge({
        periodStart: june.periodStart,
        periodEnd: null,
        now: at("2026-06-16T00:00:00Z"),
        paidCents: 1000,
        targetPriceCents: 2500,
      }).chargeCents,
    ).toBe(2500);
  });
});

describe("targetPriceIn (another currency)", () => {
  const plan = { priceCents: 1000, priceCurrency: "USD", prices: { EUR: { amount_cents: 900 } } };
  it("takes the plan's price in the subscription's currency, or none", () => {
    expect(targetPriceIn(plan, "USD")).toBe(1000);
    expect(targetPriceIn(plan, "EUR")).toBe(900);
    expect(targetPriceIn(plan, "INR")).toBeNull();
  });
});

describe("classifySwitch", () => {
  it("sorts by price per day, within a cent a month the same, lifetime not comparable", () => {
    const monthly = pricePerDay(1000, 1, "MONTHS");
    expect(classifySwitch(monthly, pricePerDay(2000, 1, "MONTHS"))).toBe("upgrade");
    expect(classifySwitch(monthly, pricePerDay(10000, 1, "YEARS"))).toBe("downgrade");
    expect(classifySwitch(monthly, pricePerDay(12000, 12, "MONTHS"))).toBe("crossgrade");
    expect(classifySwitch(monthly, pricePerDay(5000, 1, "LIFETIME"))).toBe("crossgrade");
  });
});
