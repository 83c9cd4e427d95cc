/**
 * The numbers moderators need (docs/engagement.md "Moderation figures"), for owners and
 * moderators, scoped to their account:
 * - queue age: the pending comments (unpublished, undecided, not deleted), the oldest one's age and
 *   the median age, now;
 * - time to decision: over the comments a moderator decided in the last `days` days, from the
 *   comment's creation to its (last) decision (comments.decided_at), median and 90th percentile;
 * - decisions per moderator per day (last `days`) and per week (last `weeks`, Monday to Sunday),
 *   in the account's time zone (Settings → Site, the zone every dashboard time is shown in; not
 *   the shifts' zone): every decision counts, from the audit log (approve,
 *   reject, spam, not spam, delete), since a comment keeps only its last decider.
 */
import "server-only";

import { getAccountTimeZone } from "../../../accounts/time-zone";
import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { parseInput } from "../../../validation";
import { requireModerator } from "../moderator";
import { wallClock } from "../surges/surge-rules";
import { ZModerationStatsInput, type TModerationStats, type TModerationStatsInput } from "./moderation-stats.schema";

const DAY_MS = 86_400_000;
/** The audit actions that are a moderator's decision on a comment (undo.ts DECISION_ACTIONS but undo). */
const DECISIONS = ["comment.approve", "comment.reject", "comment.spam", "comment.not_spam", "comment.delete"];

/** "YYYY-MM-DD" of `now` on the zone's calendar. */
export function localDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** A calendar date `days` later (negative: earlier). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** The last `days` local dates (oldest first) and the Mondays of the last `weeks` weeks. */
export function periodsOf(now: Date, timeZone: string, days: number, weeks: number) {
  const today = localDate(now, timeZone);
  const monday = addDays(today, 1 - wallClock(now, timeZone).day);
  return {
    days: Array.from({ length: days }, (_, i) => addDays(today, i - days + 1)),
    weeks: Array.from({ length: weeks }, (_, i) => addDays(monday, 7 * (i - weeks + 1))),
  };
}

type CountRow = { actor_id: string | null; name: string | null; period: string; n: number };

function table(rows: CountRow[], periods: string[]) {
  const byModerator = new Map<string, { moderatorId: string | null; name: string; counts: number[] }>();
  for (const row of rows) {
    const index = periods.indexOf(row.period);
    if (index < 0) continue;
    const key = row.actor_id ?? "";
    let entry = byModerator.get(key);
    if (!entry) {
      entry = { moderatorId: row.actor_id, name: row.name ?? "(deleted user)", counts: periods.map(() => 0) };
      byModerator.set(key, entry);
    }
    entry.counts[index]! += Number(row.n);
  }
  return {
    periods,
    moderators: [...byModerator.values()]
      .map((m) => ({ ...m, total: m.counts.reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)),
  };
}

const seconds = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Math.round(Number(value));

/** The account's moderation figures at `now`. */
export async function getModerationStats(
  db: Db,
  args: { actor: StaffActor; input?: TModerationStatsInput; now: Date },
): Promise<TModerationStats> {
  requireModerator(args.actor);
  const { days, weeks } = parseInput(ZModerationStatsInput, args.input ?? {});
  const { now } = args;
  const accountId = args.actor.accountId;
  const timeZone = await getAccountTimeZone(db, accountId);
  const periods = periodsOf(now, timeZone, days, weeks);
  // A day or two more than the periods, so the index on created_at bounds the reads; the zone's dates pick.
  const dayFrom = new Date(now.getTime() - (days + 1) * DAY_MS);
  const weekFrom = new Date(now.getTime() - (weeks * 7 + 1) * DAY_MS);
  const decidedFrom = new Date(now.getTime() - days * DAY_MS);
  const [queueRows, decisionRows, perDay, perWeek] = await Promise.all([
    db.$queryRaw<{ pending: number; oldest: Date | null; median: number | null }[]>`
      SELECT count(*)::int AS pending, min(created_at) AS oldest,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (${now}::timestamptz - created_at))) AS median
      FROM comments
      WHERE account_id = ${accountId} AND NOT is_published AND moderation_state = 'undecided' AND deleted_at IS NULL`,
    db.$queryRaw<{ decided: number; median: number | null; p90: number | null }[]>`
      SELECT count(*)::int AS decided,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (decided_at - created_at))) AS median,
             percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM (decided_at - created_at))) AS p90
      FROM comments
      WHERE account_id = ${accountId} AND decided_by_id IS NOT NULL
        AND decided_at >= ${decidedFrom}::timestamptz AND decided_at <= ${now}::timestamptz`,
    db.$queryRaw<CountRow[]>`
      SELECT a.actor_id::text AS actor_id, u.name,
             to_char((a.created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS period, count(*)::int AS n
      FROM audit_logs a LEFT JOIN admin_users u ON u.id = a.actor_id
      WHERE a.account_id = ${accountId} AND a.action = ANY(${DECISIONS}::text[]) AND a.actor_id IS NOT NULL
        AND a.created_at >= ${dayFrom}::timestamptz AND a.created_at <= ${now}::timestamptz
      GROUP BY 1, 2, 3`,
    db.$queryRaw<CountRow[]>`
      SELECT a.actor_id::text AS actor_id, u.name,
             to_char(date_trunc('week', a.created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS period,
             count(*)::int AS n
      FROM audit_logs a LEFT JOIN admin_users u ON u.id = a.actor_id
      WHERE a.account_id = ${accountId} AND a.action = ANY(${DECISIONS}::text[]) AND a.actor_id IS NOT NULL
        AND a.created_at >= ${weekFrom}::timestamptz AND a.created_at <= ${now}::timestamptz
      GROUP BY 1, 2, 3`,
  ]);
  const queue = queueRows[0];
  const oldest = queue?.oldest ? new Date(queue.oldest) : null;
  const decided = decisionRows[0];
  return {
    timeZone,
    generatedAt: now,
    queue: {
      pending: Number(queue?.pending ?? 0),
      oldestAt: oldest,
      oldestAgeSeconds: oldest ? Math.round((now.getTime() - oldest.getTime()) / 1000) : null,
      medianAgeSeconds: seconds(queue?.median),
    },
    timeToDecision: {
      days,
      decided: Number(decided?.decided ?? 0),
      medianSeconds: seconds(decided?.median),
      p90Seconds: seconds(decided?.p90),
    },
    perDay: table(perDay, periods.days),
    perWeek: table(perWeek, periods.weeks),
  };
}
