import { describe, expect, it } from "vitest";

import {
  applyCredit,
  classifySwitch,
  pricePerDay,
  proratedCharge,
  proratedRecurringSwitch,
  targetPriceIn,
} from "./plan-switch-proration";

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

describe("proratedRecurringSwitch (a recurring subscription's switch applied now)", () => {
  const monthly = { length: 1, unit: "MONTHS" } as const;
  const yearly = { length: 1, unit: "YEARS" } as const;
  const mid = at("2026-06-16T00:00:00Z"); // 15 of 30 days used: half unused

  it("an upgrade pays the new plan's rest of the period less the unused credit, now", () => {
    const r = proratedRecurringSwitch({
      ...june,
      now: mid,
      paidCents: 1000,
      targetPriceCents: 1200,
      current: monthly,
      target: monthly,
    });
    expect(r).toMatchObject({
      unusedFraction: 0.5,
      creditCents: 500,
      restCents: 600,
      chargeCents: 100,
      carryCents: 0,
      resetsCycle: false,
    });
  });

  it("a downgrade charges nothing and carries the difference as credit", () => {
    const r = proratedRecurringSwitch({
      ...june,
      now: mid,
      paidCents: 1200,
      targetPriceCents: 1000,
      current: monthly,
      target: monthly,
    });
    expect(r).toMatchObject({ creditCents: 600, restCents: 500, chargeCents: 0, carryCents: 100 });
  });

  it("the same price: nothing to pay, nothing carried", () => {
    const r = proratedRecurringSwitch({
      ...june,
      now: at("2026-06-11T00:00:00Z"),
      paidCents: 1000,
      targetPriceCents: 1000,
      current: monthly,
      target: monthly,
    });
    // 2/3 unused: credit floor(666.67) = 666, rest ceil(666.67) = 667: a cent for the publisher.
    expect(r).toMatchObject({ creditCents: 666, restCents: 667, chargeCents: 1, carryCents: 0 });
    const exact = proratedRecurringSwitch({
      ...june,
      now: mid,
      paidCents: 1000,
      targetPriceCents: 1000,
      current: monthly,
      target: monthly,
    });
    expect(exact).toMatchObject({ chargeCents: 0, carryCents: 0 });
  });

  it("on the last day almost nothing is credited or charged; on the first day nearly all of it", () => {
    const last = proratedRecurringSwitch({
      ...june,
      now: at("2026-06-30T12:00:00Z"),
      paidCents: 3000,
      targetPriceCents: 6000,
      current: monthly,
      target: monthly,
    });
    expect(last).toMatchObject({ creditCents: 50, restCents: 100, chargeCents: 50 }); // 1/60 unused
    const first = proratedRecurringSwitch({
      ...june,
      now: june.periodStart,
      paidCents: 3000,
      targetPriceCents: 6000,
      current: monthly,
      target: monthly,
    });
    expect(first).toMatchObject({ unusedFraction: 1, creditCents: 3000, restCents: 6000, chargeCents: 3000 });
    const after = proratedRecurringSwitch({
      ...june,
      now: at("2026-07-02T00:00:00Z"),
      paidCents: 3000,
      targetPriceCents: 6000,
      current: monthly,
      target: monthly,
    });
    expect(after).toMatchObject({ unusedFraction: 0, creditCents: 0, restCents: 0, chargeCents: 0 });
  });

  it("another billing interval resets the cycle: the new plan's full period is paid now, less the credit", () => {
    const up = proratedRecurringSwitch({
      ...june,
      now: mid,
      paidCents: 1000,
      targetPriceCents: 9000,
      current: monthly,
      target: yearly,
    });
    expect(up).toMatchObject({
      resetsCycle: true,
      creditCents: 500,
      restCents: 9000,
      chargeCents: 8500,
      carryCents: 0,
    });
    // Yearly → monthly early in the year: the credit exceeds a month's price and is carried.
    const year = { periodStart: at("2026-01-01T00:00:00Z"), periodEnd: at("2027-01-01T00:00:00Z") };
    const down = proratedRecurringSwitch({
      ...year,
      now: at("2026-02-01T00:00:00Z"),
      paidCents: 9000,
      targetPriceCents: 1000,
      current: yearly,
      target: monthly,
    });
    expect(down.resetsCycle).toBe(true);
    expect(down.creditCents).toBe(Math.floor((334 / 365) * 9000));
    expect(down.chargeCents).toBe(0);
    expect(down.carryCents).toBe(down.creditCents - 1000);
    for (const v of [down.creditCents, down.chargeCents, down.carryCents]) expect(Number.isInteger(v)).toBe(true);
  });
});

describe("applyCredit", () => {
  it("lowers a charge by the credit balance, never below 0, keeping the rest for later", () => {
    expect(applyCredit(1000, 300)).toEqual({ chargeCents: 700, usedCents: 300 });
    expect(applyCredit(1000, 2500)).toEqual({ chargeCents: 0, usedCents: 1000 });
    expect(applyCredit(1000, 0)).toEqual({ chargeCents: 1000, usedCents: 0 });
  });
});
