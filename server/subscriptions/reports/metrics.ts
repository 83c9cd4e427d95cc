/**
 * Revenue metrics (docs/subscriptions.md "Revenue metrics"; definitions in metrics.schema.ts), as
 * pure functions over subscription rows: no IO, unit-tested in metrics.test.ts. metrics-load.ts
 * reads the rows. Money is integer cents, per currency, never converted; months are calendar
 * months of the account's zone; a month's point in time is its end, or now for the current month.
 *
 * Vocabulary:
 * - *paying at t*: a recurring, non-lifetime subscription that was paid for (active, cancelled at
 *   period end, or since expired), started before t, whose access (end, or the end of its grace
 *   period) had not ended by t, out of its trial at t (and paid after it), with a recurring
 *   amount above 0;
 * - *monthly amount*: what one period costs after discount and without tax, normalised to a
 *   month: months ÷ length, years ÷ (12 × length), weeks × 52 ÷ (12 × length), days × 365 ÷ (12 ×
 *   length).
 */
import { dayInZone, zonedDayStart } from "../../dates.schema";
import type { TMoneyFigure, TMonthMetrics, TRevenueMetrics } from "./metrics.schema";

export type MetricsSubscription = {
  id: number;
  memberId: number;
  planId: number | null;
  planName: string;
  recurring: boolean;
  durationLength: number;
  durationUnit: "DAYS" | "WEEKS" | "MONTHS" | "YEARS" | "LIFETIME";
  /** A period's charge after discount, without tax (payment amount − tax amount). */
  amountCents: number;
  currency: string;
  start: Date;
  /** When access ends (end, or grace end past it); null: no end. */
  accessEnd: Date | null;
  trialEndsAt: Date | null;
  /** A charge was captured at or after the trial's end (false without a trial). */
  paidAfterTrial: boolean;
  /** Paid for: active, cancelled (at period end) or since expired; not pending or failed. */
  paid: boolean;
};

/** A period's amount as a month's share, unrounded; 0 for what recurs not (lifetime). */
export function monthlyAmount(s: Pick<MetricsSubscription, "amountCents" | "durationLength" | "durationUnit">) {
  const len = Math.max(1, s.durationLength);
  switch (s.durationUnit) {
    case "MONTHS":
      return s.amountCents / len;
    case "YEARS":
      return s.amountCents / (12 * len);
    case "WEEKS":
      return (s.amountCents * 52) / (12 * len);
    case "DAYS":
      return (s.amountCents * 365) / (12 * len);
    default:
      return 0;
  }
}

/** Whether `s` counts as a paying recurring subscription at `t` (see the header). */
export function isPayingAt(s: MetricsSubscription, t: Date): boolean {
  const time = t.getTime();
  return (
    s.paid &&
    s.recurring &&
    s.durationUnit !== "LIFETIME" &&
    s.amountCents > 0 &&
    s.start.getTime() < time &&
    (s.accessEnd === null || s.accessEnd.getTime() > time) &&
    // After a trial, only once its first charge was captured.
    (s.trialEndsAt === null || (s.trialEndsAt.getTime() <= time && s.paidAfterTrial))
  );
}

const sortedMoney = (m: Map<string, number>, scale = 1): TMoneyFigure[] =>
  [...m.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, v]) => ({ currency, cents: Math.round(v * scale) }));

/** The figures of the month [start, end), as of `now` when the month is not over. */
export function monthMetrics(
  subs: readonly MetricsSubscription[],
  month: { key: string; start: Date; end: Date },
  now: Date,
): TMonthMetrics {
  const at = new Date(Math.min(month.end.getTime(), now.getTime()));
  const mrr = new Map<string, number>();
  const payers = new Map<string, Set<number>>();
  let payingAtStart = 0;
  let ended = 0;
  let trialsEnded = 0;
  let trialsConverted = 0;
  for (const s of subs) {
    if (isPayingAt(s, at)) {
      mrr.set(s.currency, (mrr.get(s.currency) ?? 0) + monthlyAmount(s));
      const set = payers.get(s.currency) ?? new Set<number>();
      set.add(s.memberId);
      payers.set(s.currency, set);
    }
    if (isPayingAt(s, month.start)) {
      payingAtStart++;
      if (s.accessEnd && s.accessEnd.getTime() <= at.getTime()) ended++;
    }
    if (s.trialEndsAt && s.trialEndsAt >= month.start && s.trialEndsAt < at) {
      trialsEnded++;
      if (s.paidAfterTrial) trialsConverted++;
    }
  }
  const arpu = new Map<string, number>();
  for (const [currency, total] of mrr) arpu.set(currency, total / (payers.get(currency)?.size ?? 1));
  return {
    month: month.key,
    mrr: sortedMoney(mrr),
    arr: sortedMoney(mrr, 12),
    arpu: sortedMoney(arpu),
    paying_subscribers: new Set([...payers.values()].flatMap((s) => [...s])).size,
    paying_at_start: payingAtStart,
    ended,
    churn_rate: payingAtStart === 0 ? null : ended / payingAtStart,
    trials_ended: trialsEnded,
    trials_converted: trialsConverted,
    trial_conversion: trialsEnded === 0 ? null : trialsConverted / trialsEnded,
  };
}

/**
 * The last `count` calendar months of `zone` (the account's), oldest first, the one holding `now`
 * last: each from its first midnight there to the next month's.
 */
export function lastMonths(now: Date, count = 12, zone = "UTC") {
  const [y, m] = dayInZone(now, zone).split("-").map(Number) as [number, number];
  const firstDay = (offset: number) => new Date(Date.UTC(y, m - 1 + offset, 1)).toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, i) => {
    const first = firstDay(i - (count - 1));
    const start = zonedDayStart(first, zone);
    const end = zonedDayStart(firstDay(i - (count - 1) + 1), zone);
    return { key: first.slice(0, 7), start, end };
  });
}

const mrrTotal = (m: TMonthMetrics) => m.mrr.reduce((a, f) => a + f.cents, 0);

/** The last 12 months' figures (months of `zone`), and the current month's per plan. */
export function revenueMetricsOf(subs: readonly MetricsSubscription[], now: Date, zone = "UTC"): TRevenueMetrics {
  const months = lastMonths(now, 12, zone);
  const current = months.at(-1)!;
  const byPlan = new Map<string, MetricsSubscription[]>();
  for (const s of subs) {
    const key = s.planId === null ? `name:${s.planName}` : `id:${s.planId}`;
    byPlan.set(key, [...(byPlan.get(key) ?? []), s]);
  }
  const plans = [...byPlan.values()]
    .map((rows) => ({
      plan_id: rows[0]!.planId,
      // The newest subscription's copy of the plan's name.
      plan_name: rows.reduce((a, b) => (b.start > a.start ? b : a)).planName,
      ...monthMetrics(rows, current, now),
    }))
    .filter((p) => p.paying_subscribers > 0 || p.paying_at_start > 0 || p.trials_ended > 0)
    .sort((a, b) => mrrTotal(b) - mrrTotal(a) || a.plan_name.localeCompare(b.plan_name));
  const currencies = [...new Set(subs.filter((s) => s.amountCents > 0).map((s) => s.currency))].sort();
  return { months: months.map((m) => monthMetrics(subs, m, now)), plans, currencies };
}
