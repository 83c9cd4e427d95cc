import { describe, expect, it } from "vitest";

import {
  clearlyWorseArm,
  MIN_EXPOSURES_TO_STOP,
  newcombeDifference,
  studentTQuantile,
  testResult,
  welchDifference,
  wilsonInterval,
  Z_99,
  type Sums,
} from "./statistics";

const sumsOf = (values: number[]): Sums => ({
  n: values.length,
  sum: values.reduce((s, v) => s + v, 0),
  sumSq: values.reduce((s, v) => s + v * v, 0),
});

describe("Wilson's score interval (Newcombe 1998, single proportion, Table I, method 3)", () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i of %i: %f to %f", (x, n, low, high) => {
    const i = wilsonInterval(x, n);
    expect(i.low).toBeCloseTo(low, 4);
    expect(i.high).toBeCloseTo(high, 4);
  });
});

describe("Newcombe's hybrid score interval (Newcombe 1998, difference of proportions, Table II, method 10)", () => {
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
  ])("%i/%i − %i/%i: %f to %f", (x1, n1, x2, n2, low, high) => {
    const d = newcombeDifference(x1, n1, x2, n2);
    expect(d.low).toBeCloseTo(low, 4);
    expect(d.high).toBeCloseTo(high, 4);
  });
  it("mirrors when the arms are swapped", () => {
    const ab = newcombeDifference(56, 70, 48, 80);
    const ba = newcombeDifference(48, 80, 56, 70);
    expect(ba.low).toBeCloseTo(-ab.high, 12);
    expect(ba.high).toBeCloseTo(-ab.low, 12);
  });
});

describe("Student's t quantiles (any t table)", () => {
  it.each([
    [0.975, 10, 2.228139],
    [0.975, 30, 2.042272],
    [0.995, 5, 4.032143],
    [0.975, 1, 12.706205],
  ])("t(%f, %i) = %f", (p, df, t) => expect(studentTQuantile(p, df)).toBeCloseTo(t, 5));
});

describe("Welch's interval", () => {
  // Welch's t-test, Wikipedia's first worked example: Welch t = −2.46 with ν = 24.99 (Student's test: ν = 28).
  const a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
  const a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];
  it("gives the reference's t and degrees of freedom, and an interval of ±t·se around the difference", () => {
    const w = welchDifference(sumsOf(a1), sumsOf(a2));
    expect(w.t).toBeCloseTo(-2.46, 2);
    expect(w.df).toBeCloseTo(24.99, 1);
    expect(w.diff).toBeCloseTo(20.82 - 22.987, 2);
    // The interval excludes 0, as p ≈ 0.02 < 0.05 says.
    expect(w.high).toBeLessThan(0);
    const se = w.diff / w.t!;
    expect(w.high - w.diff).toBeCloseTo(studentTQuantile(0.975, w.df!) * se, 6);
  });
  it("is a point when neither sample varies", () => {
    expect(welchDifference(sumsOf([0, 0, 0]), sumsOf([0, 0]))).toMatchObject({ diff: 0, low: 0, high: 0 });
  });
});

describe("a test's result and the auto-stop rule", () => {
  const arm = (exposures: number, conversions: number, cents = 0) => ({
    exposures,
    conversions,
    revenue: { n: exposures, sum: conversions * cents, sumSq: conversions * cents * cents },
  });
  it("reports B − A with both intervals, the 99 % one wider", () => {
    const r = testResult("subscriptions", arm(200, 10), arm(200, 30));
    expect(r.diff).toBeCloseTo(0.1, 10);
    expect(r.ci99.low).toBeLessThan(r.ci95.low);
    expect(r.ci99.high).toBeGreaterThan(r.ci95.high);
    expect(r.method).toBe("newcombe");
  });
  it("stops with A worse when B − A's 99 % interval is above 0, and not before the minimum sample", () => {
    const a = arm(MIN_EXPOSURES_TO_STOP, 2);
    const b = arm(MIN_EXPOSURES_TO_STOP, 30);
    expect(clearlyWorseArm(testResult("subscriptions", a, b), a, b)).toBe("a");
    expect(clearlyWorseArm(testResult("subscriptions", b, a), b, a)).toBe("b");
    const few = arm(MIN_EXPOSURES_TO_STOP - 1, 0);
    expect(clearlyWorseArm(testResult("subscriptions", few, b), few, b)).toBeNull();
  });
  it("keeps running when the 99 % interval holds 0 though the 95 % one does not", () => {
    const a = arm(400, 20);
    const b = arm(400, 36);
    const r = testResult("subscriptions", a, b);
    expect(r.ci95.low).toBeGreaterThan(0);
    expect(r.ci99.low).toBeLessThan(0);
    expect(clearlyWorseArm(r, a, b)).toBeNull();
    expect(Z_99).toBeGreaterThan(2.5);
  });
  it("uses Welch for revenue per reader, non-payers counted as 0", () => {
    const r = testResult("revenue_30d", arm(300, 30, 900), arm(300, 10, 900));
    expect(r.method).toBe("welch");
    expect(r.diff).toBeCloseTo((10 * 900 - 30 * 900) / 300, 8);
    expect(r.ci95.high).toBeLessThan(0);
  });
});
