/** The transparency report's arithmetic: median, nearest-rank percentiles, period bounds, counts. */
import { describe, expect, it } from "vitest";

import { countBy, hoursBetween, median, percentile, periodBounds, twoDecimals } from "./transparency-figures";

describe("median and p90", () => {
  it("are null for no values", () => {
    expect(median([])).toBeNull();
    expect(percentile([], 90)).toBeNull();
  });

  it("take the middle value, or the mean of the two middle ones, whatever the order given", () => {
    expect(median([5])).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("p90 is the nearest rank: ceil(0.9 n)", () => {
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(percentile(ten, 90)).toBe(9);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90)).toBe(10);
    expect(percentile([3], 90)).toBe(3);
    expect(percentile([1, 100], 90)).toBe(100);
    expect(() => percentile([1], 0)).toThrow(RangeError);
  });

  it("hours between two instants, to two decimals", () => {
    expect(hoursBetween(new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T01:30:00Z"))).toBe(1.5);
    expect(hoursBetween(new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:20Z"))).toBe(0.01);
    expect(twoDecimals(1 / 3)).toBe(0.33);
    expect(twoDecimals(null)).toBeNull();
  });
});

describe("period bounds", () => {
  it("cover the days on the zone's clocks, both included, half open at the end", () => {
    expect(periodBounds("2026-03-01", "2026-03-31", "UTC")).toEqual({
      start: new Date("2026-03-01T00:00:00Z"),
      end: new Date("2026-04-01T00:00:00Z"),
    });
    // Berlin: CET in winter (+1), CEST from 29 March (+2).
    expect(periodBounds("2026-01-01", "2026-06-30", "Europe/Berlin")).toEqual({
      start: new Date("2025-12-31T23:00:00Z"),
      end: new Date("2026-06-30T22:00:00Z"),
    });
    const one = periodBounds("2026-11-29", "2026-11-29", "Asia/Kolkata");
    expect(one.end.getTime() - one.start.getTime()).toBe(86_400_000);
  });
});

describe("countBy", () => {
  it("lists every expected key (zeros too) in order, then others met", () => {
    expect(countBy(["b", "a", "b", "z"], ["a", "b", "c"])).toEqual([
      { key: "a", count: 1 },
      { key: "b", count: 2 },
      { key: "c", count: 0 },
      { key: "z", count: 1 },
    ]);
  });
});
