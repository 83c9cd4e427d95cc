/**
 * What the dashboard's Overview shows moderators and revenue staff about their own work
 * (docs/dashboard.md "Overview"), from the account's data at `now`:
 * - moderation: comments waiting (unpublished, undecided, not deleted) and the oldest one's time,
 *   decisions made today (the account's calendar day; every audited approve, reject, spam, not
 *   spam and delete) and comments with open reports;
 * - revenue: MRR and paying subscribers this month (metrics-load.ts), subscriptions in grace after
 *   a failed charge, renewals due in the next 7 days, and refunds of the last 30 days.
 * Money in integer cents per currency.
 */
import "server-only";

import type { Db } from "../db/client";
import { revenueMetrics } from "../subscriptions/reports/metrics-load";
import { zonedDay, zonedDayStart } from "../time-zone";
import { getAccountTimeZone } from "./time-zone";
import {
  REFUNDS_PAST_DAYS,
  RENEWALS_AHEAD_DAYS,
  type TModerationWork,
  type TRevenueWork,
} from "./work-overview.schema";

const DAY_MS = 86_400_000;
/** The audit actions that are a moderator's decision on a comment (as moderation-stats.ts counts them). */
const DECISIONS = ["comment.approve", "comment.reject", "comment.spam", "comment.not_spam", "comment.delete"];
export async function getModerationWork(db: Db, args: { accountId: number; now: Date }): Promise<TModerationWork> {
  const { accountId, now } = args;
  const zone = await getAccountTimeZone(db, accountId);
  const dayStart = zonedDayStart(zonedDay(now, zone), zone);
  const [queue, decided, reported] = await Promise.all([
    db.$queryRaw<{ pending: number; oldest: Date | null }[]>`
      SELECT count(*)::int AS pending, min(created_at) AS oldest
      FROM comments
      WHERE account_id = ${accountId} AND NOT is_published AND moderation_state = 'undecided' AND deleted_at IS NULL`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_logs
      WHERE account_id = ${accountId} AND action = ANY(${DECISIONS}::text[]) AND actor_id IS NOT NULL
        AND created_at >= ${dayStart}::timestamptz AND created_at <= ${now}::timestamptz`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM comments
      WHERE account_id = ${accountId} AND open_reports > 0 AND deleted_at IS NULL`,
  ]);
  const oldest = queue[0]?.oldest;
  return {
    pending: Number(queue[0]?.pending ?? 0),
    oldestPendingAt: oldest ? new Date(oldest) : null,
    decidedToday: Number(decided[0]?.n ?? 0),
    reported: Number(reported[0]?.n ?? 0),
  };
}

export async function getRevenueWork(db: Db, args: { accountId: number; now: Date }): Promise<TRevenueWork> {
  const { accountId, now } = args;
  const ahead = new Date(now.getTime() + RENEWALS_AHEAD_DAYS * DAY_MS);
  const since = new Date(now.getTime() - REFUNDS_PAST_DAYS * DAY_MS);
  const [metrics, grace, renewals, refunds] = await Promise.all([
    revenueMetrics(db, { accountId, now }),
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM subscriptions
      WHERE account_id = ${accountId} AND deleted_at IS NULL AND status = 'active'
        AND end_timestamp <= ${now}::timestamptz AND grace_ends_at > ${now}::timestamptz`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM subscriptions
      WHERE account_id = ${accountId} AND deleted_at IS NULL AND status = 'active' AND recurring
        AND cancelled_at IS NULL AND next_payment_due_date >= ${now}::timestamptz
        AND next_payment_due_date < ${ahead}::timestamptz`,
    db.$queryRaw<{ currency: string; n: number; cents: number }[]>`
      SELECT upper(p.currency) AS currency, count(*)::int AS n, sum(r.amount_cents)::int AS cents
      FROM payment_refunds r JOIN payments p ON p.id = r.payment_id
      WHERE r.account_id = ${accountId} AND r.status = 'succeeded' AND r.created_at >= ${since}::timestamptz
      GROUP BY 1 ORDER BY 1`,
  ]);
  const month = metrics.months.at(-1);
  return {
    mrr: month?.mrr ?? [],
    payingSubscribers: month?.paying_subscribers ?? 0,
    inGrace: Number(grace[0]?.n ?? 0),
    renewalsDue: Number(renewals[0]?.n ?? 0),
    refunds: {
      count: refunds.reduce((a, r) => a + Number(r.n), 0),
      amounts: refunds.map((r) => ({ currency: r.currency, cents: Number(r.cents) })),
    },
  };
}
