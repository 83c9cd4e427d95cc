/**
 * What a newsletter's numbers mean (docs/newsletters.md, "Measuring"), as pure functions over the
 * counts the queries (./stats-queries.ts) read in SQL:
 *
 * - **recipients**: the send's deliveries but those skipped (suppressed, left meanwhile);
 *   **delivered**: accepted by the SMTP server and not reported back (SENT); **bounced**
 *   (BOUNCED); **failed** (refused after every attempt); **pending** (not sent yet).
 * - **opened** and **clicked**: unique, one per delivery (its first open, its first click);
 *   **unsubscribed**: deliveries whose one-click or link unsubscribe was used.
 * - **open rate** and **click rate**: opened or clicked over delivered (null when none was).
 * - **subscriptions started**: paid subscriptions (status active, cancelled or expired, an
 *   amount above zero, not deleted) the clicking reader bought, for themselves or as a gift,
 *   created after their first click of the send and at most 7 days after it. One subscription
 *   counts for each send whose link its buyer clicked in the 7 days before; a newsletter's total
 *   counts it once (stats-queries.ts distinctSubscriptionsStarted), so it can be less than the
 *   sum of its sends'.
 */

import type { SendCounts, SendStats } from "./stats.schema";

export type { SendCounts, SendStats };

export const EMPTY_COUNTS: SendCounts = {
  recipients: 0,
  delivered: 0,
  bounced: 0,
  failed: 0,
  pending: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  subscriptionsStarted: 0,
};

/** `part / whole`, or null when whole is 0. */
export function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** The counts with their rates. */
export function withRates(counts: SendCounts): SendStats {
  return {
    ...counts,
    openRate: rate(counts.opened, counts.delivered),
    clickRate: rate(counts.clicked, counts.delivered),
  };
}

/** The sum of several sends' counts (a newsletter's over its sends), with its rates. */
export function totalOf(sends: readonly SendCounts[]): SendStats {
  const total = { ...EMPTY_COUNTS };
  for (const send of sends) {
    for (const key of Object.keys(total) as (keyof SendCounts)[]) total[key] += send[key];
  }
  return withRates(total);
}

export { formatRate } from "./stats.schema";

/** The days from `from` to `to` ("2026-11-01"), both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

type SubscribersDay = { day: string; active: number; started: number; ended: number };

/**
 * Active subscribers at the end of each day of the range: those active when it began
 * (`activeBefore`), plus each day's starts, less each day's ends (by day on the account's clocks).
 */
export function subscribersSeries(args: {
  from: string;
  to: string;
  activeBefore: number;
  started: ReadonlyMap<string, number>;
  ended: ReadonlyMap<string, number>;
}): SubscribersDay[] {
  let active = args.activeBefore;
  return daysBetween(args.from, args.to).map((day) => {
    const started = args.started.get(day) ?? 0;
    const ended = args.ended.get(day) ?? 0;
    active += started - ended;
    return { day, active, started, ended };
  });
}
