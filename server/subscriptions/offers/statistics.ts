/**
 * The statistics of an offer test (docs/decisions/0053-offers-and-experiments.md), pure:
 * - a proportion's interval: Wilson's score interval;
 * - the difference of two proportions (subscriptions started per reader, B − A): Newcombe's
 *   hybrid score interval ("method 10", Newcombe 1998, Statistics in Medicine 17:873–890);
 * - the difference of two means (revenue in 30 days per reader, in cents, B − A): Welch's
 *   interval, t with the Welch–Satterthwaite degrees of freedom;
 * - the auto-stop rule: both arms past MIN_EXPOSURES_TO_STOP readers and the 99 % interval of the
 *   difference wholly on one side of 0: the lower arm is clearly worse.
 */

/** The standard normal quantile for 95 % and 99 % two-sided intervals. */
const Z_95 = 1.959963984540054;
export const Z_99 = 2.5758293035489;

/** An arm needs this many readers exposed before the job may stop a test by itself. */
export const MIN_EXPOSURES_TO_STOP = 100;

export type Interval = { low: number; high: number };

/** Wilson's score interval for x successes of n (n > 0). */
export function wilsonInterval(x: number, n: number, z = Z_95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = x / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Newcombe's hybrid score interval for p1 − p2 (x1 of n1 against x2 of n2). */
export function newcombeDifference(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  z = Z_95,
): Interval & { diff: number } {
  const p1 = n1 > 0 ? x1 / n1 : 0;
  const p2 = n2 > 0 ? x2 / n2 : 0;
  const w1 = wilsonInterval(x1, n1, z);
  const w2 = wilsonInterval(x2, n2, z);
  const diff = p1 - p2;
  return {
    diff,
    low: diff - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: diff + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}

/** A sample by its sums: n values, their sum and the sum of their squares. */
export type Sums = { n: number; sum: number; sumSq: number };

function meanAndVariance(s: Sums): { mean: number; variance: number } {
  if (s.n === 0) return { mean: 0, variance: 0 };
  const mean = s.sum / s.n;
  const variance = s.n > 1 ? Math.max(0, (s.sumSq - s.n * mean * mean) / (s.n - 1)) : 0;
  return { mean, variance };
}

/** Welch's interval for mean1 − mean2 at two-sided level 1 − alpha. */
export function welchDifference(
  a: Sums,
  b: Sums,
  alpha = 0.05,
): Interval & { diff: number; t: number | null; df: number | null } {
  const A = meanAndVariance(a);
  const B = meanAndVariance(b);
  const diff = A.mean - B.mean;
  const va = a.n > 0 ? A.variance / a.n : 0;
  const vb = b.n > 0 ? B.variance / b.n : 0;
  const se = Math.sqrt(va + vb);
  if (a.n < 2 || b.n < 2 || se === 0) return { diff, low: diff, high: diff, t: null, df: null };
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const q = studentTQuantile(1 - alpha / 2, df);
  return { diff, low: diff - q * se, high: diff + q * se, t: diff / se, df };
}

// ---- Student's t distribution ------------------------------------------------------------------

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9).
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let s = c[0]!;
  for (let i = 1; i < 9; i++) s += c[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s);
}

/** The continued fraction of the regularised incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** I_x(a, b), the regularised incomplete beta function. */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with df degrees of freedom (df > 0, not necessarily whole). */
function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The p quantile of Student's t (0.5 < p < 1), by bisection on the CDF. */
export function studentTQuantile(p: number, df: number): number {
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

// ---- One test's result and the stop rule -------------------------------------------------------

export type ArmFigures = { exposures: number; conversions: number; revenue: Sums };

export type TestResult = {
  goal: "subscriptions" | "revenue_30d";
  /** B − A: conversion rate (0 to 1) or revenue per reader (cents). */
  diff: number;
  ci95: Interval;
  ci99: Interval;
  method: "newcombe" | "welch";
};

export function testResult(goal: TestResult["goal"], a: ArmFigures, b: ArmFigures): TestResult {
  if (goal === "subscriptions") {
    const d95 = newcombeDifference(b.conversions, b.exposures, a.conversions, a.exposures, Z_95);
    const d99 = newcombeDifference(b.conversions, b.exposures, a.conversions, a.exposures, Z_99);
    return { goal, diff: d95.diff, ci95: pick(d95), ci99: pick(d99), method: "newcombe" };
  }
  const d95 = welchDifference(b.revenue, a.revenue, 0.05);
  const d99 = welchDifference(b.revenue, a.revenue, 0.01);
  return { goal, diff: d95.diff, ci95: pick(d95), ci99: pick(d99), method: "welch" };
}

const pick = (i: Interval): Interval => ({ low: i.low, high: i.high });

/**
 * The auto-stop rule: with both arms past MIN_EXPOSURES_TO_STOP readers, the arm whose 99 %
 * interval of B − A excludes 0 on its side is clearly worse ("a" when the whole interval is above
 * 0, "b" when below). Null: keep running.
 */
export function clearlyWorseArm(result: TestResult, a: ArmFigures, b: ArmFigures): "a" | "b" | null {
  if (a.exposures < MIN_EXPOSURES_TO_STOP || b.exposures < MIN_EXPOSURES_TO_STOP) return null;
  if (result.ci99.low > 0) return "a";
  if (result.ci99.high < 0) return "b";
  return null;
}
