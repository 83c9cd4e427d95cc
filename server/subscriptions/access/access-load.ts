/**
 * What the paywall rule (./access-rule.ts) needs, read for ./access.ts: the story's access
 * settings, the reader's meter for the period, and the reader's member and subscriptions. Each
 * read is one statement through Prisma's raw query (`$queryRaw` with `Prisma.sql`).
 *
 * A check is asked on every page view, so what it reads is kept in each instance's memory, by
 * the changes that alter it, and read from the database only on a miss (docs/subscriptions.md
 * "Speed"):
 * - the story's access settings and the collections holding it: kept with the responses
 *   (peekKept, keepValue), dropped by the story's purge key (`s/<id>`, every change of the story
 *   announces it) and by any collection change ("collections");
 * - the reader's member and access-granting subscriptions with the assets they grant: a process
 *   cache of topic "access", cleared in every instance by the database's triggers on every write
 *   to subscriptions, their members, identities and assets (migration access_change_notices); the
 *   subscriptions' time windows are kept and applied at each check (./access-rule.ts grantsAt),
 *   so time passing needs no event;
 * - the reader's meter for the period: kept with the responses, dropped by `meter/<reader key>`,
 *   which counting a read purges (./meter.ts); the instance that counted keeps it again at once,
 *   from what the count read under its lock (keepCountedMeter). Beside them, the period's roster
 *   (./access-roster.ts), which answers a reader with no kept meter, a new reader included.
 * What checks miss is read in one statement, shared by the checks that miss in the same turn of
 * the event loop (../../db/turn-batch.ts). With the response cache off (RESPONSE_CACHE_MB=0) or while
 * nothing tells this process about changes, every check reads the database.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { ProcessCache } from "../../cache/process-cache";
import { keepValue, peekKept, responseCache } from "../../cache/response-cache";
import type { Db } from "../../db/client";
import { perTurn } from "../../db/turn-batch";
import { Prisma } from "../../generated/prisma/client";
import { readRosterIfDue, rosterViews, type MeterRef } from "./access-roster";
import type { ReaderSubscription, StoryAccess } from "./access-rule";
import { meterPurgeKey } from "./meter";

/** Whether kept copies are used at all (RESPONSE_CACHE_MB=0: every check reads the database). */
function responseCacheOn(): boolean {
  return getEnv().RESPONSE_CACHE_MB > 0;
}

/**
 * What checks that missed their kept copies want, read in one statement: the published stories'
 * access settings (a JSON array of story ids) and readers' meters (a JSON array of {k: reader key,
 * p: period start}), each answered by its position in its array (one index lookup per item: the
 * correlated subqueries keep the plan the same for any number of items). The three values are
 * bound once each, in `k`, so the statement's parameters are $1 account, $2 stories, $3 meters.
 *
 * PostgreSQL plans it once and reuses that plan (a named statement: ../../db/adapter.ts). The
 * read-ahead below is a statement of its own for that reason: as an optional part of this one,
 * it made the reusable plan look dearer than one planned for each call's values, so PostgreSQL
 * planned every miss afresh (docs/database.md "Prepared statements").
 */
const keptSql = (accountId: number, storyIds: string, meters: string) => Prisma.sql`
SELECT
  (SELECT coalesce(json_agg(json_build_array(w.n, (
      SELECT json_build_array(s.access, s.access_level_value,
        (SELECT array_agg(ci.collection_id) FROM collection_items ci WHERE ci.story_id = s.id))
      FROM stories s
      WHERE s.id = w.id::uuid AND s.account_id = k.account AND s.status = 'published'))), '[]'::json)
    FROM json_array_elements_text(k.stories) WITH ORDINALITY AS w(id, n)) AS stories,
  (SELECT coalesce(json_agg(json_build_array(w.n, (
      SELECT coalesce(json_agg(m.story_id), '[]'::json) FROM meter_views m
      WHERE m.account_id = k.account AND m.reader_key = w.item->>'k'
        AND m.period_start = (w.item->>'p')::timestamptz))), '[]'::json)
    FROM json_array_elements(k.meters) WITH ORDINALITY AS w(item, n)) AS meters
FROM (SELECT ${accountId}::int AS account, ${storyIds}::json AS stories, ${meters}::json AS meters) AS k`;

/** The text of the miss statement (access-cache.int.test.ts checks that PostgreSQL reuses its plan). */
export const KEPT_SQL = keptSql(0, "[]", "[]").text;

/**
 * The read-ahead: the access settings of the account's `limit` most recently published stories
 * that are not public (stories_not_public_idx).
 */
const readAheadSql = (accountId: number, limit: number) => Prisma.sql`
SELECT coalesce(json_agg(json_build_array(r.id, r.access, r.access_level_value,
  (SELECT array_agg(ci.collection_id) FROM collection_items ci WHERE ci.story_id = r.id))), '[]'::json) AS ahead
FROM (
  SELECT s.id, s.access, s.access_level_value FROM stories s
  WHERE s.account_id = ${accountId}::int AND s.status = 'published' AND s.access <> 'public'
  ORDER BY s.published_at DESC
  LIMIT ${limit}::int
) AS r`;

/**
 * Read-ahead: the first check that misses a story's settings also keeps those of the account's
 * other stories a paywall asks about (the 5,000 most recently published that are not public), so
 * that each is not read by its own first check. Once per account while a marker is kept beside
 * them (under "collections": a collection change drops every kept story, and the next miss reads
 * ahead again rather than each story once; otherwise the cache's backstop lifetime), and one at a
 * time. Each kept story is what its own read would keep, under the same keys, so every change
 * drops it as before.
 */
const READ_AHEAD_STORIES = 5_000;
const readingAhead = new Set<number>();
const readAheadKey = (accountId: number) => `${accountId} access:read-ahead`;

const NO_VIEWS: readonly string[] = Object.freeze([]);

const storyAccessOf = (access: string, level: unknown, collections: unknown[] | null): StoryAccess => ({
  access,
  accessLevelValue: level === null ? null : Number(level),
  collectionIds: (collections ?? []).map(Number),
});

const storyKeyOf = (accountId: number, storyId: string) => `${accountId} access:story:${storyId}`;
const storyTags = (storyId: string) => [`s/${storyId}`, "collections"];
// The period by its start in milliseconds: the key is built on every check (toISOString costs more).
const meterKeyOf = (accountId: number, meter: MeterRef) =>
  `${accountId} access:meter:${meter.readerKey}:${meter.periodStart.getTime()}`;

/**
 * The published story's access settings (null: unknown, another account's, unpublished) when
 * `storyId` is given, and the stories counted on the reader's meter in the period when `meter` is:
 * what is kept, and the rest read (see readMissed) and kept (see above for by which keys).
 */
export async function loadStoryAndMeter(
  db: Db,
  accountId: number,
  storyId: string | null,
  meter: MeterRef | null,
): Promise<{ story: StoryAccess | null; views: readonly string[] }> {
  const meterKey = meter === null ? null : meterKeyOf(accountId, meter);
  const story = storyId === null ? null : (peekKept<StoryAccess>(storyKeyOf(accountId, storyId)) ?? null);
  const views =
    meterKey === null ? NO_VIEWS : (peekKept<readonly string[]>(meterKey) ?? rosterViews(accountId, meter!));
  const wantStory = storyId !== null && story === null;
  const wantViews = meterKey !== null && views === undefined;
  if (!wantStory && !wantViews) return { story, views: views ?? NO_VIEWS };
  const read = await readMissed(db, accountId, {
    storyId: wantStory ? storyId : null,
    meter: wantViews ? { ...meter!, key: meterKey } : null,
  });
  return { story: wantStory ? read.story : story, views: (wantViews ? read.views : views) ?? NO_VIEWS };
}

/**
 * After this instance counted a read: the count's commit dropped the kept meter here (and its
 * notice drops it elsewhere); this keeps the meter the count read under its lock, so that the
 * reader's next check, on the next page, is not a miss. A count another instance commits later
 * drops it again.
 */
export function keepCountedMeter(accountId: number, meter: MeterRef, views: string[]): void {
  if (!responseCacheOn()) return;
  keepValue(accountId, meterKeyOf(accountId, meter), responseCache().generation(), views, [
    meterPurgeKey(meter.readerKey),
  ]);
}

/** A story's settings as the statements give them (json): access, access level, collection ids. */
type StoryRow = [access: string, level: unknown, collections: unknown[] | null] | null;
type AheadRow = [id: string, access: string, level: unknown, collections: unknown[] | null];

/** What a check missed: a story's settings, a meter (with the key it is kept under). */
type Missed = { storyId: string | null; meter: (MeterRef & { key: string }) | null };
type Read = { story: StoryAccess | null; views: string[] };

/**
 * What a check missed, read together with what other checks of the account missed in the same
 * turn of the event loop (../../db/turn-batch.ts): one statement, whose reads are kept, then each
 * check gets its part. Beside it, when due, the read-ahead and the period's roster.
 */
const readMissed = perTurn(async (db: Db, accountId: number, batch: Missed[]): Promise<Read[]> => {
  const storyIds = [...new Set(batch.flatMap((missed) => (missed.storyId === null ? [] : [missed.storyId])))];
  const meters = new Map<string, MeterRef>();
  for (const missed of batch) if (missed.meter) meters.set(missed.meter.key, missed.meter);
  const generation = responseCache().generation();
  const ahead =
    storyIds.length > 0 &&
    responseCacheOn() &&
    !readingAhead.has(accountId) &&
    peekKept(readAheadKey(accountId)) === undefined;
  if (ahead) readingAhead.add(accountId);
  const period = meters.size > 0 ? meters.values().next().value!.periodStart : null;
  const metersJson = JSON.stringify(
    [...meters.values()].map((m) => ({ k: m.readerKey, p: m.periodStart.toISOString() })),
  );
  const [[row], [readAhead], keepRoster] = await Promise.all([
    db.$queryRaw<{ stories: [number, StoryRow][]; meters: [number, string[] | null][] }[]>(
      keptSql(accountId, JSON.stringify(storyIds), metersJson),
    ),
    ahead ? db.$queryRaw<{ ahead: AheadRow[] }[]>(readAheadSql(accountId, READ_AHEAD_STORIES)) : [],
    period !== null && responseCacheOn() ? readRosterIfDue(db, accountId, period, generation) : null,
  ]).finally(() => {
    if (ahead) readingAhead.delete(accountId);
  });
  keepRoster?.();

  const stories = new Map<string, StoryAccess | null>();
  for (const [n, found] of row?.stories ?? []) {
    const storyId = storyIds[n - 1]!;
    const story = found && storyAccessOf(found[0], found[1], found[2]);
    if (story) keepValue(accountId, storyKeyOf(accountId, storyId), generation, story, storyTags(storyId));
    stories.set(storyId, story);
  }
  const views = new Map<string, string[]>();
  const meterKeys = [...meters.keys()];
  for (const [n, counted] of row?.meters ?? []) {
    const key = meterKeys[n - 1]!;
    views.set(key, counted ?? []);
    keepValue(accountId, key, generation, counted ?? [], [meterPurgeKey(meters.get(key)!.readerKey)]);
  }
  if (ahead) keepValue(accountId, readAheadKey(accountId), generation, true, ["collections"]);
  for (const [id, access, level, collections] of readAhead?.ahead ?? []) {
    if (!stories.has(id))
      keepValue(
        accountId,
        storyKeyOf(accountId, id),
        generation,
        storyAccessOf(access, level, collections),
        storyTags(id),
      );
  }
  return batch.map((missed) => ({
    story: missed.storyId === null ? null : (stories.get(missed.storyId) ?? null),
    views: missed.meter === null ? [] : (views.get(missed.meter.key) ?? []),
  }));
});

// ─── The reader ──────────────────────────────────────────────────────────────────────────────

type ReaderState = { memberId: number | null; subscriptions: ReaderSubscription[] };

/**
 * Readers' members (by id, or by the JWT user's `publisher` identity) and each member's active
 * or cancelled subscriptions (its own, through the index on subscriber_id, and the group_access
 * ones it is a member of) with their plan's and group's granted assets and their time windows:
 * for each item of `readers`, a JSON array of {m: member id, j: JWT user id} (one of them null),
 * a row `n` (its position). The rule of "access-granting" is ../subscribers/subscription-state.ts's
 * accessGrantingWhere: its status part here, its time part in access-rule.ts's `grantsAt`.
 */
const readerSql = (accountId: number, readers: string) => Prisma.sql`
SELECT w.n, r.member_id, r.subscriptions
FROM json_array_elements(${readers}::json) WITH ORDINALITY AS w(item, n)
CROSS JOIN LATERAL (
  WITH mem AS (
    SELECT m.id FROM members m WHERE (w.item->>'m')::int IS NOT NULL AND m.id = (w.item->>'m')::int AND m.account_id = ${accountId}::int
    UNION ALL
    SELECT mi.member_id FROM member_identities mi
    WHERE (w.item->>'m')::int IS NULL AND (w.item->>'j') IS NOT NULL
      AND mi.account_id = ${accountId}::int AND mi.provider = 'publisher' AND mi.external_id = (w.item->>'j')
    LIMIT 1
  ),
  subs AS (
    SELECT sub.* FROM subscriptions sub WHERE sub.subscriber_id = (SELECT id FROM mem)
    UNION
    SELECT sub.* FROM subscription_members sm JOIN subscriptions sub ON sub.id = sm.subscription_id
    WHERE sm.member_id = (SELECT id FROM mem)
  )
  SELECT
    (SELECT id FROM mem) AS member_id,
    COALESCE((
      SELECT json_agg(json_build_object(
        'id', g.id,
        'type', g.subscription_type,
        'dynamic_assets', g.dynamic_assets,
        'start', g.start_timestamp,
        'end', g.end_timestamp,
        'grace', g.grace_ends_at,
        'assets', COALESCE((
          SELECT json_agg(json_build_object('type', a.type, 'metadata', a.metadata))
          FROM subscription_assets a
          WHERE a.id IN (
            SELECT pa.asset_id FROM subscription_plan_assets pa
            WHERE pa.subscription_plan_id = g.subscription_plan_id AND pa.role IN ('assets', 'additional_assets')
            UNION
            SELECT ga.asset_id FROM subscription_group_assets ga
            WHERE ga.subscription_group_id = g.subscription_group_id AND ga.role = 'assets'
          )
        ), '[]'::json)
      ) ORDER BY g.id)
      FROM subs g
      WHERE g.account_id = ${accountId}::int AND g.deleted_at IS NULL AND g.status IN ('active', 'cancelled')
    ), '[]'::json) AS subscriptions
) AS r`;

/** A subscription as the statement gives it (json; times as text). */
type SubscriptionRow = {
  id: number;
  type: string;
  dynamic_assets: unknown;
  start: string | null;
  end: string | null;
  grace: string | null;
  assets: ReaderSubscription["assets"] | null;
};

const readerStates = new ProcessCache<string, ReaderState>("access", { ttlMs: 10 * 60_000, maxEntries: 100_000 });

const epochMs = (value: string | null): number | null => (value === null ? null : new Date(value).getTime());

type ReaderMiss = { memberId: number | null; jwtUserId: string | null };

/**
 * Reader states that checks missed, read together with the others of the account's checks in the
 * same turn of the event loop (../../db/turn-batch.ts): one statement for the readers who arrive at
 * once (a newsletter sent, a paywall's subscribers signing in). A batch that saw the cache cleared
 * meanwhile keeps nothing: the triggers' notice clears it at a write's commit, and a state read
 * before that commit and stored after the notice would outlive it.
 */
const readReaderStates = perTurn(async (db: Db, accountId: number, batch: ReaderMiss[]): Promise<ReaderState[]> => {
  const epoch = readerStates.epoch;
  const readers = JSON.stringify(
    batch.map((miss) => ({ m: miss.memberId, j: miss.memberId === null ? miss.jwtUserId : null })),
  );
  const rows = await db.$queryRaw<{ n: bigint; member_id: number | null; subscriptions: SubscriptionRow[] }[]>(
    readerSql(accountId, readers),
  );
  const states = new Array<ReaderState>(batch.length);
  for (const row of rows) {
    states[Number(row.n) - 1] = {
      memberId: row.member_id,
      subscriptions: row.subscriptions.map((s) => ({
        id: s.id,
        type: s.type,
        dynamicAssets: s.dynamic_assets,
        assets: s.assets ?? [],
        start: epochMs(s.start),
        end: epochMs(s.end),
        graceEnds: epochMs(s.grace),
      })),
    };
  }
  return batch.map((miss, n) => {
    const state = states[n] ?? { memberId: null, subscriptions: [] };
    if (responseCacheOn()) readerStates.set(readerStateKey(accountId, miss), state, Date.now(), epoch);
    return state;
  });
});

const readerStateKey = (accountId: number, miss: ReaderMiss) =>
  miss.memberId !== null ? `${accountId} m:${miss.memberId}` : `${accountId} j:${miss.jwtUserId}`;

/** The reader's member and subscriptions: kept, or read (with the other misses of this turn) and kept. */
export async function loadReaderState(
  db: Db,
  accountId: number,
  memberId: number | null,
  jwtUserId: string | null,
): Promise<ReaderState> {
  if (memberId === null && !jwtUserId) return { memberId: null, subscriptions: [] };
  const miss = { memberId, jwtUserId };
  const kept = responseCacheOn() ? readerStates.get(readerStateKey(accountId, miss)) : undefined;
  return kept ?? readReaderStates(db, accountId, miss);
}
