/**
 * The paywall meter (docs/subscriptions.md, "Access and metering"): how many free stories a
 * reader gets per calendar period (UTC), per account. Pure rules here (periods, reader keys,
 * what is left) plus the account's settings, kept in the process (topic "meter", dropped on every
 * instance when staff change them), and the one write: counting a metered read.
 */
import "server-only";

import { ProcessCache } from "../../cache/process-cache";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { DurationUnit } from "../../generated/prisma/enums";

export { meterPeriodStart, meterReaderKey, registrationMeterKey } from "./meter-period";

export type MeterRules = {
  enabled: boolean;
  freeStories: number;
  periodLength: number;
  periodUnit: DurationUnit;
  meterAnonymous: boolean;
  /** The registration wall: anonymous readers read `registrationFreeStories` per period, then sign up. */
  registrationWall: boolean;
  registrationFreeStories: number;
};

// ─── The account's settings ──────────────────────────────────────────────────────────────────

const SETTINGS_TTL_MS = 30_000;
const settingsCache = new ProcessCache<number, MeterRules | null>("meter", {
  ttlMs: SETTINGS_TTL_MS,
  maxEntries: 10_000,
});

/** The account's meter, or null when it has none (no row: metering is off). Cached in the process. */
export async function getMeterRules(db: Db, accountId: number, now = Date.now()): Promise<MeterRules | null> {
  const hit = settingsCache.get(accountId, now);
  if (hit !== undefined) return hit;
  const row = await db.meterSettings.findUnique({ where: { accountId } });
  const rules: MeterRules | null = row
    ? {
        enabled: row.enabled,
        freeStories: row.freeStories,
        periodLength: row.periodLength,
        periodUnit: row.periodUnit,
        meterAnonymous: row.meterAnonymous,
        registrationWall: row.registrationWall,
        registrationFreeStories: row.registrationFreeStories,
      }
    : null;
  settingsCache.set(accountId, rules, now);
  return rules;
}

/** Forget cached settings in this process (tests). */
export function forgetMeterCache(): void {
  settingsCache.clear();
}

// ─── Counting ────────────────────────────────────────────────────────────────────────────────

/** The purge key of a reader's meter, as access checks keep it (./access.ts); meter_views' trigger announces the same. */
export function meterPurgeKey(readerKey: string): string {
  return `meter/${readerKey}`;
}

/** First key of pg_advisory_xact_lock(int, int) for a reader's meter (the second: a hash of account and reader). */
const METER_LOCK = 0x4d_45_54; // "MET"

/**
 * Count `storyId` on the reader's meter for the period, unless it is counted already (a repeated
 * or parallel pingback: the unique index absorbs it) or the reader has no free story left. The
 * reader's meter is locked for the transaction, so parallel pingbacks of different stories cannot
 * pass the limit together. "counted": this call counted it, and `views` are the stories counted
 * in the period with it (read under the lock, so no count of this reader's is missing from them);
 * "already": it was; "exhausted": no free story left, nothing counted.
 */
export async function countMeteredRead(
  db: Db,
  args: { accountId: number; readerKey: string; periodStart: Date; storyId: string; freeStories: number; now: Date },
): Promise<{ outcome: "counted"; views: string[] } | { outcome: "already" | "exhausted" }> {
  return withTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${METER_LOCK}::int, hashtext(${`${args.accountId}:${args.readerKey}`}::text))) AS locked`;
    // The outer SELECT sees the meter as it was before the INSERT (one snapshot): the row it adds
    // comes from RETURNING.
    const [row] = await tx.$queryRaw<{ inserted: string[] | null; before: string[] | null }[]>`
      WITH inserted AS (
        INSERT INTO meter_views (account_id, reader_key, period_start, story_id, created_at)
        SELECT ${args.accountId}::int, ${args.readerKey}::text, ${args.periodStart}::timestamptz, ${args.storyId}::text, ${args.now}::timestamptz
        WHERE (
          SELECT count(*) FROM meter_views
          WHERE account_id = ${args.accountId}::int AND reader_key = ${args.readerKey}::text AND period_start = ${args.periodStart}::timestamptz
        ) < ${args.freeStories}::int
        ON CONFLICT (account_id, reader_key, period_start, story_id) DO NOTHING
        RETURNING story_id
      )
      SELECT
        (SELECT array_agg(story_id) FROM inserted) AS inserted,
        (SELECT array_agg(story_id ORDER BY id) FROM meter_views
          WHERE account_id = ${args.accountId}::int AND reader_key = ${args.readerKey}::text
            AND period_start = ${args.periodStart}::timestamptz) AS before`;
    // The reader's meter as access checks keep it (./access.ts) is dropped in every instance at
    // commit: the database announces a new view by the reader's meterPurgeKey.
    if (row?.inserted?.length) {
      return { outcome: "counted", views: [...(row.before ?? []), ...row.inserted] };
    }
    return { outcome: row?.before?.includes(args.storyId) ? "already" : "exhausted" };
  });
}
