/**
 * The revenue dashboard's reports, aggregated in SQL, per day of the account's zone
 * (`accounts.time_zone`) over a range of at most 366 days (revenue.schema.ts). Definitions (docs/dashboard.md "Revenue"):
 *
 * - A subscription *counts* when it is not deleted and its status grants access (active, or
 *   cancelled at period end). Its access ends at `end_timestamp`, or at `grace_ends_at` when an
 *   active one is in a grace period past it; no end: never.
 * - **Active on a day**: counting subscriptions started before the end of the day (or now, for
 *   today) whose access has not ended by then.
 * - **New on a day**: counting subscriptions whose start falls on the day.
 * - **Churned on a day**: counting subscriptions whose access ended on the day (and before now),
 *   so active(d) = active(d-1) + new(d) - churned(d).
 * - **Revenue**: captured payments (status captured or refunded) by the day they were made,
 *   per currency, in integer cents; refunds (succeeded) by the day they were made, per currency;
 *   net = captured - refunded. A trial's authorization charge is no revenue: neither it nor its
 *   refund counts (../checkout/trial-history.ts, the rule invoices follow too).
 * - **Tax**: the taxes inside those figures, as frozen on the documents: tax = the `tax_lines`
 *   amounts of the captured payments' invoices (inclusive and exclusive alike), on the payment's
 *   day; refunded tax = the `tax_lines` amounts of the refunds' credit notes, on the refund's day.
 *   A payment without an invoice (manual, sponsored) or a refund without a credit note carries no
 *   tax. net excluding tax = net - (tax - refunded tax): what the publisher keeps before taxes.
 * - **Meter conversion**: a reader *hit the paywall* on the day their free_stories-th metered read
 *   of a meter period was counted (meter_views, the account's current free limit). They
 *   *converted* when they are a logged-in reader ("m:<member id>") whose member started a
 *   counting subscription at or after that moment (up to the end of the range). Anonymous readers
 *   ("r:<reader id>") cannot be followed to a subscription: they count as hits, never as conversions.
 */
import "server-only";

import { getAccountTimeZone } from "../../accounts/time-zone";
import { dayInZone } from "../../dates.schema";
import type { Db } from "../../db/client";
import { parseInput } from "../../validation";
import { TRIAL_AUTHORIZATION_SQL } from "../checkout/trial-history";
import { rangeBounds, ZReportRangeInput, type TReportRangeInput } from "./revenue.schema";

type SubscriptionsReport = {
  days: { day: string; active: number; new: number; churned: number }[];
  totals: { new: number; churned: number; active_at_end: number };
};
type RevenueFigures = {
  captured_cents: number;
  refunded_cents: number;
  net_cents: number;
  tax_cents: number;
  refunded_tax_cents: number;
  net_excluding_tax_cents: number;
};
type RevenueReport = {
  currencies: string[];
  days: ({ day: string; currency: string } & RevenueFigures)[];
  totals: ({ currency: string } & RevenueFigures)[];
};
type ConversionReport = {
  free_stories: number | null;
  days: { day: string; hit_paywall: number; converted: number }[];
  totals: { hit_paywall: number; converted: number; rate: number | null };
};

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : Number(v ?? 0));
const dayOf = (v: unknown) => String(v).slice(0, 10);

export async function subscriptionsReport(
  db: Db,
  args: { accountId: number; range: TReportRangeInput; now: Date },
): Promise<SubscriptionsReport> {
  const range = parseInput(ZReportRangeInput, args.range);
  const zone = await getAccountTimeZone(db, args.accountId);
  const { start, end, days } = rangeBounds(range, zone);
  const now = args.now;
  // Calendar days of the zone: local midnights as instants (23 or 25 hours apart on a clock change).
  const rows = await db.$queryRaw<{ day: string; active: bigint; new: bigint; churned: bigint }[]>`
    WITH days AS (
      SELECT to_char(d, 'YYYY-MM-DD') AS day, d AT TIME ZONE ${zone} AS day_start,
        (d + interval '1 day') AT TIME ZONE ${zone} AS day_end
      FROM generate_series(${range.from}::timestamp, ${range.to}::timestamp, interval '1 day') AS d
    ),
    subs AS (
      SELECT start_timestamp AS started,
        CASE WHEN status = 'active' AND grace_ends_at IS NOT NULL AND end_timestamp IS NOT NULL
               AND grace_ends_at > end_timestamp THEN grace_ends_at ELSE end_timestamp END AS ends
      FROM subscriptions
      WHERE account_id = ${args.accountId} AND deleted_at IS NULL AND status IN ('active', 'cancelled')
        AND start_timestamp < ${end}::timestamptz
        AND (end_timestamp IS NULL OR end_timestamp >= ${start}::timestamptz
             OR (grace_ends_at IS NOT NULL AND grace_ends_at >= ${start}::timestamptz))
    )
    SELECT days.day,
      (SELECT COUNT(*) FROM subs WHERE subs.started < LEAST(days.day_end, ${now}::timestamptz)
         AND (subs.ends IS NULL OR subs.ends >= LEAST(days.day_end, ${now}::timestamptz))) AS active,
      (SELECT COUNT(*) FROM subs WHERE subs.started >= days.day_start AND subs.started < days.day_end) AS new,
      (SELECT COUNT(*) FROM subs WHERE subs.ends >= days.day_start AND subs.ends < days.day_end
         AND subs.ends <= ${now}::timestamptz) AS churned
    FROM days ORDER BY days.day_start`;
  const byDay = new Map(rows.map((r) => [dayOf(r.day), r]));
  const out = days.map((day) => {
    const r = byDay.get(day);
    return { day, active: num(r?.active), new: num(r?.new), churned: num(r?.churned) };
  });
  return {
    days: out,
    totals: {
      new: out.reduce((a, d) => a + d.new, 0),
      churned: out.reduce((a, d) => a + d.churned, 0),
      active_at_end: out.at(-1)?.active ?? 0,
    },
  };
}

export async function revenueReport(
  db: Db,
  args: { accountId: number; range: TReportRangeInput },
): Promise<RevenueReport> {
  const range = parseInput(ZReportRangeInput, args.range);
  const zone = await getAccountTimeZone(db, args.accountId);
  const { start, end } = rangeBounds(range, zone);
  // Taxes of a payment: its invoice's tax_lines; of a refund: its credit note's (one each at most).
  const rows = await db.$queryRaw<
    { day: string; currency: string; captured: bigint; refunded: bigint; tax: bigint; refunded_tax: bigint }[]
  >`
    WITH captured AS (
      SELECT to_char(p.created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, p.currency,
        SUM(p.amount_cents)::bigint AS cents, SUM(COALESCE(it.cents, 0))::bigint AS tax
      FROM payments p LEFT JOIN subscriptions s ON s.id = p.subscription_id
        LEFT JOIN LATERAL (
          SELECT SUM((t->>'amount_cents')::bigint) AS cents
          FROM invoices i CROSS JOIN LATERAL jsonb_array_elements(i.tax_lines) t
          WHERE i.payment_id = p.id
        ) it ON true
      WHERE p.account_id = ${args.accountId} AND p.status IN ('captured', 'refunded')
        AND p.created_at >= ${start}::timestamptz AND p.created_at < ${end}::timestamptz
        AND NOT ${TRIAL_AUTHORIZATION_SQL}
      GROUP BY 1, 2
    ),
    refunded AS (
      SELECT to_char(r.created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, p.currency,
        SUM(r.amount_cents)::bigint AS cents, SUM(COALESCE(ct.cents, 0))::bigint AS tax
      FROM payment_refunds r JOIN payments p ON p.id = r.payment_id LEFT JOIN subscriptions s ON s.id = p.subscription_id
        LEFT JOIN LATERAL (
          SELECT SUM((t->>'amount_cents')::bigint) AS cents
          FROM credit_notes cn CROSS JOIN LATERAL jsonb_array_elements(cn.tax_lines) t
          WHERE cn.refund_id = r.id
        ) ct ON true
      WHERE r.account_id = ${args.accountId} AND r.status = 'succeeded'
        AND r.created_at >= ${start}::timestamptz AND r.created_at < ${end}::timestamptz
        AND NOT ${TRIAL_AUTHORIZATION_SQL}
      GROUP BY 1, 2
    )
    SELECT COALESCE(c.day, r.day) AS day, COALESCE(c.currency, r.currency) AS currency,
      COALESCE(c.cents, 0) AS captured, COALESCE(r.cents, 0) AS refunded,
      COALESCE(c.tax, 0) AS tax, COALESCE(r.tax, 0) AS refunded_tax
    FROM captured c FULL OUTER JOIN refunded r ON r.day = c.day AND r.currency = c.currency
    ORDER BY 1, 2`;
  const days = rows.map((r) => ({
    day: dayOf(r.day),
    currency: r.currency,
    ...revenueFigures(num(r.captured), num(r.refunded), num(r.tax), num(r.refunded_tax)),
  }));
  const totals = new Map<string, { currency: string } & RevenueFigures>();
  for (const d of days) {
    const t = totals.get(d.currency);
    const sum = t
      ? revenueFigures(
          t.captured_cents + d.captured_cents,
          t.refunded_cents + d.refunded_cents,
          t.tax_cents + d.tax_cents,
          t.refunded_tax_cents + d.refunded_tax_cents,
        )
      : revenueFigures(d.captured_cents, d.refunded_cents, d.tax_cents, d.refunded_tax_cents);
    totals.set(d.currency, { currency: d.currency, ...sum });
  }
  const currencies = [...totals.keys()].sort();
  return { currencies, days, totals: currencies.map((c) => totals.get(c)!) };
}

/** The report's figures from its four sums (integer cents). */
function revenueFigures(captured: number, refunded: number, tax: number, refundedTax: number): RevenueFigures {
  const net = captured - refunded;
  return {
    captured_cents: captured,
    refunded_cents: refunded,
    net_cents: net,
    tax_cents: tax,
    refunded_tax_cents: refundedTax,
    net_excluding_tax_cents: net - (tax - refundedTax),
  };
}

export async function conversionReport(
  db: Db,
  args: { accountId: number; range: TReportRangeInput },
): Promise<ConversionReport> {
  const range = parseInput(ZReportRangeInput, args.range);
  const zone = await getAccountTimeZone(db, args.accountId);
  const { start, end, days } = rangeBounds(range, zone);
  const settings = await db.meterSettings.findUnique({ where: { accountId: args.accountId } });
  const empty = days.map((day) => ({ day, hit_paywall: 0, converted: 0 }));
  if (!settings) return { free_stories: null, days: empty, totals: { hit_paywall: 0, converted: 0, rate: null } };
  const rows = await db.$queryRaw<{ day: string; hits: bigint; converted: bigint }[]>`
    WITH ranked AS (
      SELECT reader_key, created_at,
        ROW_NUMBER() OVER (PARTITION BY reader_key, period_start ORDER BY created_at, id) AS n
      FROM meter_views
      WHERE account_id = ${args.accountId} AND created_at < ${end}::timestamptz
    ),
    hits AS (
      SELECT reader_key, created_at AS hit_at FROM ranked
      WHERE n = ${settings.freeStories} AND created_at >= ${start}::timestamptz
    )
    SELECT to_char(h.hit_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, COUNT(*) AS hits,
      COUNT(*) FILTER (WHERE h.reader_key LIKE 'm:%' AND EXISTS (
        SELECT 1 FROM subscriptions s
        WHERE s.account_id = ${args.accountId} AND s.deleted_at IS NULL AND s.status IN ('active', 'cancelled')
          AND s.subscriber_id::text = substr(h.reader_key, 3)
          AND s.created_at >= h.hit_at AND s.created_at < ${end}::timestamptz)) AS converted
    FROM hits h GROUP BY 1 ORDER BY 1`;
  const byDay = new Map(rows.map((r) => [dayOf(r.day), r]));
  const out = days.map((day) => {
    const r = byDay.get(day);
    return { day, hit_paywall: num(r?.hits), converted: num(r?.converted) };
  });
  const hit = out.reduce((a, d) => a + d.hit_paywall, 0);
  const converted = out.reduce((a, d) => a + d.converted, 0);
  return {
    free_stories: settings.freeStories,
    days: out,
    totals: { hit_paywall: hit, converted, rate: hit === 0 ? null : converted / hit },
  };
}

/**
 * The overview's headline numbers: active now, and this month's (on the account's clocks) new,
 * churned, revenue and conversion.
 */
export async function revenueHeadlines(db: Db, args: { accountId: number; now: Date }) {
  const today = dayInZone(args.now, await getAccountTimeZone(db, args.accountId));
  const range = { from: `${today.slice(0, 7)}-01`, to: today };
  const [subs, revenue, conversion] = await Promise.all([
    subscriptionsReport(db, { accountId: args.accountId, range, now: args.now }),
    revenueReport(db, { accountId: args.accountId, range }),
    conversionReport(db, { accountId: args.accountId, range }),
  ]);
  return {
    month: range.from.slice(0, 7),
    active: subs.totals.active_at_end,
    new_this_month: subs.totals.new,
    churned_this_month: subs.totals.churned,
    revenue_this_month: revenue.totals,
    conversion_this_month: conversion.totals,
  };
}
