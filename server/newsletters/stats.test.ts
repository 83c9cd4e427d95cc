import { describe, expect, it } from "vitest";

import { daysBetween, EMPTY_COUNTS, formatRate, rate, subscribersSeries, totalOf, withRates } from "./stats";

describe("newsletter stats", () => {
  it("rates over delivered mails, none when nothing was delivered", () => {
    expect(rate(1, 4)).toBe(0.25);
    expect(rate(0, 0)).toBeNull();
    const stats = withRates({ ...EMPTY_COUNTS, recipients: 10, delivered: 8, opened: 4, clicked: 2 });
    expect(stats.openRate).toBe(0.5);
    expect(stats.clickRate).toBe(0.25);
    expect(withRates(EMPTY_COUNTS)).toMatchObject({ openRate: null, clickRate: null });
  });

  it("adds sends up, rates from the sums (not the mean of rates)", () => {
    const a = { ...EMPTY_COUNTS, recipients: 10, delivered: 10, opened: 10, clicked: 1, bounced: 0 };
    const b = {
      ...EMPTY_COUNTS,
      recipients: 92,
      delivered: 90,
      opened: 0,
      clicked: 8,
      bounced: 2,
      subscriptionsStarted: 3,
    };
    const total = totalOf([a, b]);
    expect(total).toMatchObject({
      recipients: 102,
      delivered: 100,
      opened: 10,
      clicked: 9,
      bounced: 2,
      subscriptionsStarted: 3,
    });
    expect(total.openRate).toBe(0.1);
    expect(total.clickRate).toBe(0.09);
    expect(totalOf([])).toEqual(withRates(EMPTY_COUNTS));
  });

  it("formats rates with one decimal", () => {
    expect(formatRate(0.4251)).toBe("42.5%");
    expect(formatRate(1)).toBe("100.0%");
    expect(formatRate(null)).toBe("—");
  });

  it("lists the days of a range across a month's end", () => {
    expect(daysBetween("2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(daysBetween("2026-03-02", "2026-03-02")).toEqual(["2026-03-02"]);
  });

  it("counts active subscribers at each day's end from those before, starts and ends", () => {
    const series = subscribersSeries({
      from: "2026-11-01",
      to: "2026-11-04",
      activeBefore: 5,
      started: new Map([
        ["2026-11-01", 2],
        ["2026-11-03", 1],
      ]),
      ended: new Map([
        ["2026-11-02", 3],
        ["2026-11-03", 1],
      ]),
    });
    expect(series).toEqual([
      { day: "2026-11-01", active: 7, started: 2, ended: 0 },
      { day: "2026-11-02", active: 4, started: 0, ended: 3 },
      { day: "2026-11-03", active: 4, started: 1, ended: 1 },
      { day: "2026-11-04", active: 4, started: 0, ended: 0 },
    ]);
  });
});
