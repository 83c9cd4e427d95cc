/**
 * Revenue metrics' loading layer (docs/subscriptions.md "Revenue metrics"): one read of the
 * account's subscriptions that can matter to the last 12 months of its zone, handed to the pure
 * calculations of metrics.ts.
 */
import "server-only";

import { getAccountTimeZone } from "../../accounts/time-zone";
import type { Db } from "../../db/client";
import { lastMonths, revenueMetricsOf, type MetricsSubscription } from "./metrics";
import type { TRevenueMetrics } from "./metrics.schema";

type Row = {
  id: number;
  member_id: number;
  plan_id: number | null;
  plan_name: string;
  recurring: boolean;
  duration_length: number;
  duration_unit: string;
  amount_cents: number;
  currency: string;
  start_timestamp: Date;
  access_end: Date | null;
  trial_ends_at: Date | null;
  paid_after_trial: boolean;
  paid: boolean;
};

const UNITS = new Set(["DAYS", "WEEKS", "MONTHS", "YEARS", "LIFETIME"]);

/**
 * MRR, ARR, churn, ARPU and trial conversion of the last 12 months of the account's zone, and the
 * current one's per plan.
 */
export async function revenueMetrics(db: Db, args: { accountId: number; now: Date }): Promise<TRevenueMetrics> {
  const zone = await getAccountTimeZone(db, args.accountId);
  const from = lastMonths(args.now, 12, zone)[0]!.start;
  // Pending and failed subscriptions were never paid: only trials among them matter (a trial that
  // ended unpaid counts against trial conversion).
  const rows = await db.$queryRaw<Row[]>`
    SELECT s.id, s.subscriber_id AS member_id, s.subscription_plan_id AS plan_id, s.plan_name, s.recurring,
      s.duration_length, upper(s.duration_unit::text) AS duration_unit,
      (s.payment_amount_cents - s.tax_amount_cents)::int AS amount_cents,
      upper(s.payment_amount_currency) AS currency, s.start_timestamp,
      CASE WHEN s.status = 'active' AND s.grace_ends_at IS NOT NULL AND s.end_timestamp IS NOT NULL
             AND s.grace_ends_at > s.end_timestamp THEN s.grace_ends_at ELSE s.end_timestamp END AS access_end,
      s.trial_ends_at,
      (s.trial_ends_at IS NOT NULL AND EXISTS (
        SELECT 1 FROM payments p
        WHERE p.subscription_id = s.id AND p.status IN ('captured', 'refunded') AND p.created_at >= s.trial_ends_at
      )) AS paid_after_trial,
      (s.status IN ('active', 'cancelled', 'expired')) AS paid
    FROM subscriptions s
    WHERE s.account_id = ${args.accountId} AND s.deleted_at IS NULL
      AND (s.status IN ('active', 'cancelled', 'expired') OR s.trial_ends_at IS NOT NULL)
      AND s.start_timestamp < ${args.now}::timestamptz
      AND (s.end_timestamp IS NULL OR s.end_timestamp >= ${from}::timestamptz
           OR s.grace_ends_at >= ${from}::timestamptz OR s.trial_ends_at >= ${from}::timestamptz)`;
  const subs: MetricsSubscription[] = rows.map((r) => ({
    id: r.id,
    memberId: r.member_id,
    planId: r.plan_id,
    planName: r.plan_name,
    recurring: r.recurring,
    durationLength: Number(r.duration_length),
    durationUnit: (UNITS.has(r.duration_unit) ? r.duration_unit : "LIFETIME") as MetricsSubscription["durationUnit"],
    amountCents: Number(r.amount_cents),
    currency: r.currency,
    start: r.start_timestamp,
    accessEnd: r.access_end,
    trialEndsAt: r.trial_ends_at,
    paidAfterTrial: r.paid_after_trial,
    paid: r.paid,
  }));
  return revenueMetricsOf(subs, args.now, zone);
}
