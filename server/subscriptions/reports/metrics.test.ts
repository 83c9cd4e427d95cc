import { describe, expect, it } from "vitest";

import {
  isPayingAt,
  lastMonths,
  monthlyAmount,
  monthMetrics,
  revenueMetricsOf,
  type MetricsSubscription,
} from "./metrics";

const d = (iso: string) => new Date(`${iso}T00:00:00Z`);
let nextId = 1;
const sub = (over: Partial<MetricsSubscription>): MetricsSubscription => ({
  id: nextId++,
  memberId: nextId,
  planId: 1,
  planName: "Monthly",
  recurring: true,
  durationLength: 1,
  durationUnit: "MONTHS",
  amountCents: 900,
  currency: "USD",
  start: d("2026-01-10"),
  accessEnd: d("2026-12-10"),
  trialEndsAt: null,
  paidAfterTrial: false,
  paid: true,
  ...over,
});

describe("monthlyAmount", () => {
  it("normalises a period's price to a month", () => {
    expect(monthlyAmount({ amountCents: 900, durationLength: 1, durationUnit: "MONTHS" })).toBe(900);
    expect(monthlyAmount({ amountCents: 900, durationLength: 3, durationUnit: "MONTHS" })).toBe(300);
    expect(monthlyAmount({ amountCents: 12000, durationLength: 1, durationUnit: "YEARS" })).toBe(1000);
    expect(monthlyAmount({ amountCents: 300, durationLength: 1, durationUnit: "WEEKS" })).toBe(1300);
    expect(monthlyAmount({ amountCents: 12, durationLength: 1, durationUnit: "DAYS" })).toBe(365);
    expect(monthlyAmount({ amountCents: 5000, durationLength: 1, durationUnit: "LIFETIME" })).toBe(0);
  });
});

describe("isPayingAt", () => {
  const t = d("2026-06-01");
  it("counts a paid recurring subscription between its start and its access's end", () => {
    expect(isPayingAt(sub({}), t)).toBe(true);
    expect(isPayingAt(sub({ start: d("2026-06-02") }), t)).toBe(false);
    expect(isPayingAt(sub({ accessEnd: d("2026-06-01") }), t)).toBe(false);
    expect(isPayingAt(sub({ accessEnd: null }), t)).toBe(true);
  });
  it("leaves out one-time, lifetime, free, unpaid and trialling subscriptions", () => {
    expect(isPayingAt(sub({ recurring: false }), t)).toBe(false);
    expect(isPayingAt(sub({ durationUnit: "LIFETIME", accessEnd: null }), t)).toBe(false);
    expect(isPayingAt(sub({ amountCents: 0 }), t)).toBe(false);
    expect(isPayingAt(sub({ paid: false }), t)).toBe(false);
    expect(isPayingAt(sub({ trialEndsAt: d("2026-06-05"), paidAfterTrial: true }), t)).toBe(false);
    expect(isPayingAt(sub({ trialEndsAt: d("2026-05-20"), paidAfterTrial: false }), t)).toBe(false);
    expect(isPayingAt(sub({ trialEndsAt: d("2026-05-20"), paidAfterTrial: true }), t)).toBe(true);
  });
});

describe("monthMetrics", () => {
  const june = { key: "2026-06", start: d("2026-06-01"), end: d("2026-07-01") };

  it("computes MRR, ARR, ARPU per currency, churn and trial conversion by hand", () => {
    const subs = [
      sub({ memberId: 1, amountCents: 900 }), // 9.00 a month
      sub({ memberId: 1, amountCents: 12000, durationUnit: "YEARS", accessEnd: d("2027-01-10") }), // 10.00 a month, same reader
      sub({ memberId: 2, amountCents: 900, accessEnd: d("2026-06-15") }), // churns in June
      sub({ memberId: 3, amountCents: 2000, currency: "EUR" }),
      sub({ memberId: 4, recurring: false, amountCents: 5000 }), // one-time: no MRR
      sub({ memberId: 5, trialEndsAt: d("2026-06-10"), paidAfterTrial: true, start: d("2026-05-27") }),
      sub({ memberId: 6, trialEndsAt: d("2026-06-20"), paidAfterTrial: false, paid: false, start: d("2026-06-06") }),
    ];
    const m = monthMetrics(subs, june, d("2026-08-01"));
    // At 1 July: reader 1 (900 + 1000), reader 5 (900), EUR reader 3 (2000). Reader 2 ended on 15 June.
    expect(m.mrr).toEqual([
      { currency: "EUR", cents: 2000 },
      { currency: "USD", cents: 2800 },
    ]);
    expect(m.arr).toEqual([
      { currency: "EUR", cents: 24000 },
      { currency: "USD", cents: 33600 },
    ]);
    // USD: 2800 / 2 readers; EUR: 2000 / 1.
    expect(m.arpu).toEqual([
      { currency: "EUR", cents: 2000 },
      { currency: "USD", cents: 1400 },
    ]);
    expect(m.paying_subscribers).toBe(3);
    // Paying on 1 June: readers 1 (two subscriptions), 2 and 3 = 4 subscriptions; 1 ended.
    expect([m.paying_at_start, m.ended, m.churn_rate]).toEqual([4, 1, 0.25]);
    expect([m.trials_ended, m.trials_converted, m.trial_conversion]).toEqual([2, 1, 0.5]);
  });

  it("counts the current month up to now, and says null when there is nothing to divide by", () => {
    const m = monthMetrics([sub({ accessEnd: d("2026-06-20") })], june, d("2026-06-10"));
    expect(m.ended).toBe(0);
    expect(m.mrr).toEqual([{ currency: "USD", cents: 900 }]);
    const empty = monthMetrics([], june, d("2026-06-10"));
    expect([empty.churn_rate, empty.trial_conversion, empty.mrr, empty.arpu]).toEqual([null, null, [], []]);
  });
});

describe("lastMonths", () => {
  it("takes the months of the account's zone: 31 Dec 20:00 UTC is January in Tokyo", () => {
    const tokyo = lastMonths(new Date("2026-12-31T20:00:00Z"), 2, "Asia/Tokyo");
    expect(tokyo.map((m) => m.key)).toEqual(["2026-12", "2027-01"]);
    expect(tokyo[1]!.start).toEqual(new Date("2026-12-31T15:00:00Z"));
    expect(tokyo[1]!.end).toEqual(new Date("2027-01-31T15:00:00Z"));
    // New York: March starts in EST and ends in EDT.
    const [march] = lastMonths(new Date("2026-03-20T12:00:00Z"), 1, "America/New_York");
    expect(march).toEqual({
      key: "2026-03",
      start: new Date("2026-03-01T05:00:00Z"),
      end: new Date("2026-04-01T04:00:00Z"),
    });
  });
});

describe("revenueMetricsOf", () => {
  it("gives the last 12 months oldest first and the current month per plan, the highest MRR first", () => {
    expect(lastMonths(d("2026-03-15")).map((m) => m.key)).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
    const out = revenueMetricsOf(
      [
        sub({ planId: 1, planName: "Monthly" }),
        sub({ planId: 2, planName: "Yearly", amountCents: 24000, durationUnit: "YEARS" }),
        sub({ planId: 3, planName: "Gone", accessEnd: d("2026-02-01") }),
      ],
      d("2026-06-10"),
    );
    expect(out.months).toHaveLength(12);
    expect(out.months.at(-1)!.month).toBe("2026-06");
    expect(out.plans.map((p) => [p.plan_name, p.mrr])).toEqual([
      ["Yearly", [{ currency: "USD", cents: 2000 }]],
      ["Monthly", [{ currency: "USD", cents: 900 }]],
    ]);
    expect(out.currencies).toEqual(["USD"]);
  });
});
