/**
 * Recovered and lost revenue (docs/dashboard.md "Revenue", docs/subscriptions.md "Dunning"):
 * the failure episodes of recurring subscriptions (dunning_episodes) that ended in a range of days
 * of the account's zone, by the day they ended and their currency, in integer cents.
 *
 * - **Recovered**: an unpaid period was paid in its grace period (a retry, or the gateway's own
 *   charge); the period's amount counts on the day it was paid.
 * - **Lost**: the grace period ran out unpaid; the period's amount counts on the day the
 *   subscription expired.
 * - **At risk**: episodes still open (in grace now), whatever the range: what may yet be either.
 */
import "server-only";

import { getAccountTimeZone } from "../../accounts/time-zone";
import type { Db } from "../../db/client";
import { parseInput } from "../../validation";
import { rangeBounds, ZReportRangeInput, type TReportRangeInput } from "./revenue.schema";

type DunningDay = {
  day: string;
  currency: string;
  recovered_cents: number;
  lost_cents: number;
  recovered: number;
  lost: number;
};
type DunningTotal = Omit<DunningDay, "day">;
type DunningReport = {
  currencies: string[];
  days: DunningDay[];
  totals: DunningTotal[];
  at_risk: { currency: string; cents: number; subscriptions: number }[];
};

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : Number(v ?? 0));

export async function dunningReport(
  db: Db,
  args: { accountId: number; range: TReportRangeInput },
): Promise<DunningReport> {
  const range = parseInput(ZReportRangeInput, args.range);
  const zone = await getAccountTimeZone(db, args.accountId);
  const { start, end } = rangeBounds(range, zone);
  const rows = await db.$queryRaw<
    { day: string; currency: string; recovered_cents: bigint; lost_cents: bigint; recovered: bigint; lost: bigint }[]
  >`
    SELECT to_char(e.ended_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, e.currency,
      COALESCE(SUM(e.amount_cents) FILTER (WHERE e.outcome = 'recovered'), 0) AS recovered_cents,
      COALESCE(SUM(e.amount_cents) FILTER (WHERE e.outcome = 'lost'), 0) AS lost_cents,
      COUNT(*) FILTER (WHERE e.outcome = 'recovered') AS recovered,
      COUNT(*) FILTER (WHERE e.outcome = 'lost') AS lost
    FROM dunning_episodes e
    WHERE e.account_id = ${args.accountId} AND e.outcome <> 'open'
      AND e.ended_at >= ${start}::timestamptz AND e.ended_at < ${end}::timestamptz
    GROUP BY 1, 2
    ORDER BY 1, 2`;
  const open = await db.$queryRaw<{ currency: string; cents: bigint; n: bigint }[]>`
    SELECT e.currency, SUM(e.amount_cents) AS cents, COUNT(*) AS n
    FROM dunning_episodes e
    WHERE e.account_id = ${args.accountId} AND e.outcome = 'open'
    GROUP BY 1 ORDER BY 1`;
  const days = rows.map((r) => ({
    day: String(r.day).slice(0, 10),
    currency: r.currency,
    recovered_cents: num(r.recovered_cents),
    lost_cents: num(r.lost_cents),
    recovered: num(r.recovered),
    lost: num(r.lost),
  }));
  const totals = new Map<string, DunningTotal>();
  for (const d of days) {
    const t = totals.get(d.currency) ?? {
      currency: d.currency,
      recovered_cents: 0,
      lost_cents: 0,
      recovered: 0,
      lost: 0,
    };
    t.recovered_cents += d.recovered_cents;
    t.lost_cents += d.lost_cents;
    t.recovered += d.recovered;
    t.lost += d.lost;
    totals.set(d.currency, t);
  }
  const currencies = [...totals.keys()].sort();
  return {
    currencies,
    days,
    totals: currencies.map((c) => totals.get(c)!),
    at_risk: open.map((o) => ({ currency: o.currency, cents: num(o.cents), subscriptions: num(o.n) })),
  };
}
