/**
 * The period's roster (docs/subscriptions.md "Speed"), beside the meters access checks keep
 * (./access-load.ts): a paywall's readers are mostly new ones, and each one's first check would
 * read a meter that is not there. So the account's first meter miss of a period also reads every
 * reader's meter of the period, once, and keeps it beside the kept meters while this process hears
 * about every change (as they are kept). A reader with no kept meter is answered from it: the
 * stories it lists, or none for a reader it does not name, unless that reader's meter was purged
 * since the roster was read (a count, here or in another instance: then the check reads it as
 * before). A purge of the whole account, a cleared cache or the backstop lifetime drops the
 * roster, and the next miss reads it again; so does a new period. An account with more readers
 * in the period than `maxReaders` (about 100 bytes each) has none: its checks read each meter as
 * before, and the roster is not tried again for the lifetime.
 */
import "server-only";

import { cachesAnswer } from "../../cache/process-cache";
import { RESPONSE_TTL_MS, responseCache } from "../../cache/response-cache";
import type { Db } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { meterPurgeKey } from "./meter";

/** A reader's meter for a period. */
export type MeterRef = { readerKey: string; periodStart: Date };

/** Exported for access-cache.int.test.ts, which lowers `maxReaders`. */
export const METER_ROSTER = { maxReaders: 50_000 };

/**
 * The stories counted on each reader's meter in the period, for every reader the account's meter
 * counted anything for, at most `limit` readers (meter_views_period_idx). `readers` says how many
 * came, so a roster cut at the limit is told apart.
 */
const rosterSql = (accountId: number, periodStart: Date, limit: number) => Prisma.sql`
SELECT count(*)::int AS readers,
  coalesce(json_agg(json_build_array(r.reader_key, r.views)), '[]'::json) AS roster
FROM (
  SELECT m.reader_key, array_agg(m.story_id) AS views FROM meter_views m
  WHERE m.account_id = ${accountId}::int AND m.period_start = ${periodStart}::timestamptz
  GROUP BY m.reader_key
  LIMIT ${limit}::int
) AS r`;

type Roster = {
  periodMs: number;
  /** The response cache's purge number when it was read (a reader purged since is not answered). */
  generation: number;
  until: number;
  /** Reader key → stories counted; null: too many readers to keep. */
  views: ReadonlyMap<string, readonly string[]> | null;
};
const globalForRosters = globalThis as unknown as { mastheadMeterRosters?: Map<number, Roster> };
/** On globalThis: one for every bundle Next.js loads, like the response cache it follows. */
const rosters = (globalForRosters.mastheadMeterRosters ??= new Map<number, Roster>());
const readingRoster = new Set<number>();
const NO_VIEWS: readonly string[] = Object.freeze([]);

/** The account's roster for the period while it may answer (whether or not it holds readers). */
function currentRoster(accountId: number, periodMs: number): Roster | undefined {
  const roster = rosters.get(accountId);
  if (roster === undefined || roster.periodMs !== periodMs) return undefined;
  if (roster.until <= Date.now() || responseCache().purgedSince(accountId, [], roster.generation)) {
    rosters.delete(accountId);
    return undefined;
  }
  return roster;
}

/** The reader's meter from the period's roster, or undefined when the roster cannot tell it. */
export function rosterViews(accountId: number, meter: MeterRef): readonly string[] | undefined {
  if (!cachesAnswer()) return undefined;
  const roster = currentRoster(accountId, meter.periodStart.getTime());
  if (roster?.views == null) return undefined;
  if (responseCache().purgedSince(accountId, [meterPurgeKey(meter.readerKey)], roster.generation)) return undefined;
  return roster.views.get(meter.readerKey) ?? NO_VIEWS;
}

/**
 * The period's roster, read when the account has none for the period (of any size) and none is
 * being read; `generation` is the response cache's, read before. Resolves to what keeps it (the
 * caller keeps it once the rest of its reads succeeded), or null when it was not due.
 */
export async function readRosterIfDue(
  db: Db,
  accountId: number,
  periodStart: Date,
  generation: number,
): Promise<(() => void) | null> {
  const periodMs = periodStart.getTime();
  if (!cachesAnswer() || readingRoster.has(accountId) || currentRoster(accountId, periodMs) !== undefined) return null;
  readingRoster.add(accountId);
  try {
    const [row] = await db.$queryRaw<{ readers: number; roster: [string, string[]][] }[]>(
      rosterSql(accountId, periodStart, METER_ROSTER.maxReaders + 1),
    );
    return row ? () => keepRoster(accountId, periodMs, generation, row.readers, row.roster) : null;
  } finally {
    readingRoster.delete(accountId);
  }
}

/** The roster as read: each reader's stories frozen, the story ids shared between readers. */
function keepRoster(
  accountId: number,
  periodMs: number,
  generation: number,
  readers: number,
  rows: [readerKey: string, stories: string[]][],
): void {
  let views: Map<string, readonly string[]> | null = null;
  if (readers <= METER_ROSTER.maxReaders) {
    views = new Map();
    const ids = new Map<string, string>();
    for (const [readerKey, stories] of rows) {
      const shared = stories.map((id) => ids.get(id) ?? (ids.set(id, id), id));
      views.set(readerKey, Object.freeze(shared));
    }
  }
  // Not kept if the whole account was purged while it was read (its readers' purges are checked at each use).
  if (responseCache().purgedSince(accountId, [], generation)) return;
  rosters.set(accountId, { periodMs, generation, until: Date.now() + RESPONSE_TTL_MS, views });
}
