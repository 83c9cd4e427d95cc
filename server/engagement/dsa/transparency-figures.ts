/**
 * The arithmetic of the DSA transparency report (docs/privacy.md, "Illegal-content notices"):
 * pure, so unit tests need no database.
 *
 * - Percentiles are nearest-rank: the p-th percentile of n sorted values is the value at rank
 *   ceil(p/100 × n) (1-based); the median is the mean of the two middle values when n is even.
 *   None of no values: null.
 * - A period is days on the account's clocks, both included: [start of `from`, start of the day
 *   after `to`), so a notice at the last millisecond of `to` counts and one at midnight after does not.
 */
import { nextDay, zonedDayStart } from "../../dates.schema";

/** The median of `values` (null for none). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The nearest-rank `p`-th percentile of `values` (null for none). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  if (!(p > 0 && p <= 100)) throw new RangeError("p must be in (0, 100]");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(1, rank) - 1]!;
}

/** Hours between two instants, to two decimals. */
export function hoursBetween(from: Date, to: Date): number {
  return Math.round(((to.getTime() - from.getTime()) / 3_600_000) * 100) / 100;
}

/** Round to two decimals (null stays null). */
export const twoDecimals = (n: number | null): number | null => (n === null ? null : Math.round(n * 100) / 100);

/** The half-open range of instants of the days `from` to `to` (both included) on `zone`'s clocks. */
export function periodBounds(from: string, to: string, zone: string): { start: Date; end: Date } {
  return { start: zonedDayStart(from, zone), end: zonedDayStart(nextDay(to), zone) };
}

/** Counts by key, in the order of `keys` first (every one, zeros included), then any other key met. */
export function countBy(values: readonly string[], keys: readonly string[] = []): { key: string; count: number }[] {
  const counts = new Map<string, number>(keys.map((k) => [k, 0]));
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count }));
}
