/**
 * The access decision: may this reader read this story, and why (docs/subscriptions.md, "Access
 * and metering"). One function, `decideAccess`, answers the web check (`…/access`, the browser
 * SDK's isAssetAccessible), AMP's authorization (`…/amp-access`), both pingbacks and the 402 of
 * the content API. It is asked on every page view, so a check is one SQL statement and no
 * transaction: the story's access settings, the reader's member, the reader's access-granting
 * subscriptions with the assets they grant, and the reader's meter for the period. The key and
 * the account's meter settings come from the process caches.
 *
 * Grant reasons (`grantReason`, what AMP templates read):
 * - FREE: a public story (access "public", or none set).
 * - LOGGED_IN: a "login" story and a logged-in reader.
 * - SUBSCRIBER: a "subscription" story and an access-granting subscription of the reader (its
 *   own, or a group_access subscription it is a member of) whose assets cover the story (see
 *   `assetsCoverStory`).
 * - ASSET: pay per asset: a dynamic_asset subscription whose dynamic_assets name the story, or a
 *   collection holding it.
 * - METERING: a free read within the account's meter.
 * Denials (`granted: false`, `grantReason: null`; the reason in `why`, never on the wire):
 * login_required, hard_paywall (disable-meter: only subscribers), meter_off (no meter, or
 * disabled), anonymous_not_metered, no_reader (nobody to count a read for), meter_exhausted.
 */
import "server-only";

import { getEnv } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import { cachesAnswer, ProcessCache } from "../cache/process-cache";
import { keepValue, peekKept, RESPONSE_TTL_MS, responseCache } from "../cache/response-cache";
import type { Db } from "../db/client";
import { readRaw } from "../db/raw-read";
import { perTurn } from "../db/turn-batch";
import { AppError } from "../errors";
import { findOrCreateJwtMember } from "../members/identities";
import {
  countMeteredRead,
  getMeterRules,
  meterPeriodStart,
  meterPurgeKey,
  meterReaderKey,
  type MeterRules,
} from "./meter";

export type GrantReason = "FREE" | "LOGGED_IN" | "SUBSCRIBER" | "ASSET" | "METERING";
export type DenialReason =
  "login_required" | "hard_paywall" | "meter_off" | "anonymous_not_metered" | "no_reader" | "meter_exhausted";

/** The answer AMP and the browser SDK read (the spec's access grant object, meter object). */
export type AccessGrant = {
  granted: boolean;
  grantReason: GrantReason | null;
  data: {
    /** Free stories left in the period after this read; null when the reader is not metered. */
    numberRemaining: number | null;
    isLoggedIn: boolean;
    /** This read uses the reader's last free story of the period. */
    isLast: boolean;
  };
};

export type AccessDecision = AccessGrant & {
  /** Why, for logs and tests: a grant's detail ("subscription:12", "meter:counted") or a DenialReason. */
  why: string;
};

export type AccessReader = {
  /** The reader's member, when the caller knows it (a member session, or the pingback that created it). */
  memberId: number | null;
  /** The publisher-JWT user id (`id` claim), when the reader sent a JWT: its member is looked up. */
  jwtUserId?: string | null;
  /** The anonymous reader id (AMP's READER_ID, the web's reader cookie). */
  readerId: string | null;
};

export type StoryAccess = { access: string; accessLevelValue: number | null; collectionIds: number[] };

export type GrantingSubscription = {
  id: number;
  type: string;
  /** [{id, type}] for pay per asset. */
  dynamicAssets: unknown;
  /** What the plan (assets, additional assets) and the group (assets) grant. */
  assets: { type: string; metadata: unknown }[];
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ─── Pure rules ──────────────────────────────────────────────────────────────────────────────

/** "public", "login" or "subscription"; anything else is treated as "subscription" (closed, not open). */
export function storyAccessKind(access: string | null | undefined): "public" | "login" | "subscription" {
  const value = (access ?? "").trim().toLowerCase();
  if (value === "" || value === "public") return "public";
  if (value === "login") return "login";
  return "subscription";
}

function accessLevelOf(metadata: unknown): number | null {
  if (!metadata || typeof metadata !== "object") return null;
  const raw = (metadata as Record<string, unknown>).access_level;
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/**
 * Whether a subscription's assets cover a story:
 * - a `site` asset covers every story;
 * - a `story` asset with `metadata.access_level` L covers stories whose access-level-value is
 *   unset or at most L; a `story` asset without a level covers every story;
 * - a `static` asset (an e-paper, a PDF, a page that is not a story) covers no story;
 * - a subscription granting no asset at all (neither its plan nor its group names one) covers
 *   every story: a publisher selling "digital access" without modelling assets means the site.
 *   Campaign subscriptions (contributions) are the exception: without assets they grant nothing.
 */
export function assetsCoverStory(sub: Pick<GrantingSubscription, "type" | "assets">, story: StoryAccess): boolean {
  if (sub.assets.length === 0) return sub.type !== "campaign" && sub.type !== "dynamic_asset";
  return sub.assets.some((asset) => {
    if (asset.type === "site") return true;
    if (asset.type !== "story") return false;
    const level = accessLevelOf(asset.metadata);
    return level === null || story.accessLevelValue === null || story.accessLevelValue <= level;
  });
}

/** Whether a pay-per-asset subscription's dynamic_assets name the story or a collection holding it. */
export function dynamicAssetsCoverStory(dynamicAssets: unknown, storyId: string, story: StoryAccess): boolean {
  if (!Array.isArray(dynamicAssets)) return false;
  return dynamicAssets.some((item) => {
    if (!item || typeof item !== "object") return false;
    const { id, type } = item as { id?: unknown; type?: unknown };
    const kind = typeof type === "string" ? type.toLowerCase() : "story";
    if (kind === "collection") return story.collectionIds.includes(Number(id));
    return String(id).toLowerCase() === storyId.toLowerCase();
  });
}

type MeterState = {
  rules: MeterRules | null;
  readerKey: string | null;
  loggedIn: boolean;
  /** Stories counted in the period, and whether this one is among them. */
  views: number;
  counted: boolean;
};

/**
 * The decision from what was loaded (no IO). With the meter, `numberRemaining` is what is left
 * after this read; a story already counted in the period is read again for free.
 */
export function decideFromState(args: {
  storyId: string;
  story: StoryAccess;
  subscriptions: GrantingSubscription[];
  meter: MeterState;
  disableMeter: boolean;
}): AccessDecision {
  const { story, meter } = args;
  const metered = meterApplies(meter);
  const remainingNow = metered ? Math.max(0, meter.rules!.freeStories - meter.views) : null;
  const grant = (grantReason: GrantReason, why: string, numberRemaining = remainingNow, isLast = false) => ({
    granted: true,
    grantReason,
    data: { numberRemaining, isLoggedIn: meter.loggedIn, isLast },
    why,
  });
  const deny = (why: DenialReason): AccessDecision => ({
    granted: false,
    grantReason: null,
    data: { numberRemaining: remainingNow, isLoggedIn: meter.loggedIn, isLast: false },
    why,
  });

  const kind = storyAccessKind(story.access);
  if (kind === "public") return grant("FREE", "free_story");
  if (kind === "login") return meter.loggedIn ? grant("LOGGED_IN", "logged_in") : deny("login_required");

  for (const sub of args.subscriptions) {
    if (sub.type === "dynamic_asset") {
      if (dynamicAssetsCoverStory(sub.dynamicAssets, args.storyId, story)) return grant("ASSET", `asset:${sub.id}`);
    } else if (assetsCoverStory(sub, story)) {
      return grant("SUBSCRIBER", `subscription:${sub.id}`);
    }
  }
  if (args.disableMeter) return deny("hard_paywall");
  if (!meter.rules || !meter.rules.enabled) return deny("meter_off");
  if (!meter.loggedIn && !meter.rules.meterAnonymous) return deny("anonymous_not_metered");
  if (meter.loggedIn && meter.readerKey === null) {
    // A logged-in reader never seen: nothing counted yet (the pingback creates the member).
    return meter.rules.freeStories > 0
      ? grant("METERING", "meter:new", meter.rules.freeStories - 1, meter.rules.freeStories === 1)
      : deny("meter_exhausted");
  }
  if (meter.readerKey === null) return deny("no_reader");
  if (meter.counted) return grant("METERING", "meter:already_counted", remainingNow, false);
  if (remainingNow! > 0) return grant("METERING", "meter:new", remainingNow! - 1, remainingNow === 1);
  return deny("meter_exhausted");
}

function meterApplies(meter: MeterState): boolean {
  if (!meter.rules || !meter.rules.enabled) return false;
  if (!meter.loggedIn && !meter.rules.meterAnonymous) return false;
  return meter.loggedIn || meter.readerKey !== null;
}

// ─── Loading ─────────────────────────────────────────────────────────────────────────────────
//
// A check is asked on every page view, so what it reads is kept in each instance's memory, by the
// changes that alter it, and read from the database only on a miss (docs/subscriptions.md "Speed"):
// - the story's access settings and the collections holding it: kept with the responses
//   (peekKept, keepValue), dropped by the story's purge key (`s/<id>`, every change of the story announces
//   it) and by any collection change ("collections");
// - the reader's member and access-granting subscriptions with the assets they grant: a process
//   cache of topic "access", cleared in every instance by the database's triggers on every write
//   to subscriptions, their members, identities and assets (migration access_change_notices); the
//   subscriptions' time windows are kept and applied at each check, so time passing needs no event;
// - the reader's meter for the period: kept with the responses, dropped by `meter/<reader key>`,
//   which counting a read purges (./meter.ts); the instance that counted keeps it again at once,
//   from what the count read under its lock. Beside them, the period's roster: every reader's
//   meter of the period, read at once on the account's first meter miss (when there are at most
//   METER_ROSTER.maxReaders), which answers a reader with no kept meter, a new reader included,
//   unless that reader's meter was purged since the roster was read. What checks miss is read in
//   one statement, shared by the checks that miss in the same turn of the event loop (readMissed).
// With the response cache off (RESPONSE_CACHE_MB=0) or while nothing tells this process about
// changes, every check reads the database.

/**
 * What checks that missed their kept copies want, read in one statement: the published stories'
 * access settings ($2: a JSON array of story ids) and readers' meters ($3: a JSON array of
 * {k: reader key, p: period start}), each answered by its position in its array (one index
 * lookup per item: the correlated subqueries keep the plan the same for any number of items).
 *
 * PostgreSQL plans it once and reuses that plan (a named statement: ../db/adapter.ts). The
 * read-ahead below is a statement of its own for that reason: as an optional part of this one
 * (`CASE WHEN $4 > 0`), it made the reusable plan look dearer than one planned for each call's
 * values, so PostgreSQL planned every miss afresh: 0.2 to 0.28 ms of its CPU a miss, against 0.06
 * to 0.08 without it (5,000 meter misses, 10 at a time; docs/database.md "Prepared statements").
 * Exported for access-cache.int.test.ts, which checks that PostgreSQL reuses the plan.
 */
export const KEPT_SQL = `
SELECT
  (SELECT coalesce(json_agg(json_build_array(w.n, (
      SELECT json_build_array(s.access, s.access_level_value,
        (SELECT array_agg(ci.collection_id) FROM collection_items ci WHERE ci.story_id = s.id))
      FROM stories s
      WHERE s.id = w.id::uuid AND s.account_id = $1::int AND s.status = 'published'))), '[]'::json)
    FROM json_array_elements_text($2::json) WITH ORDINALITY AS w(id, n)) AS stories,
  (SELECT coalesce(json_agg(json_build_array(w.n, (
      SELECT coalesce(json_agg(m.story_id), '[]'::json) FROM meter_views m
      WHERE m.account_id = $1::int AND m.reader_key = w.item->>'k'
        AND m.period_start = (w.item->>'p')::timestamptz))), '[]'::json)
    FROM json_array_elements($3::json) WITH ORDINALITY AS w(item, n)) AS meters`;

/**
 * The read-ahead (below): the access settings of the account's $2 most recently published stories
 * that are not public (stories_not_public_idx).
 */
const READ_AHEAD_SQL = `
SELECT coalesce(json_agg(json_build_array(r.id, r.access, r.access_level_value,
  (SELECT array_agg(ci.collection_id) FROM collection_items ci WHERE ci.story_id = r.id))), '[]'::json) AS ahead
FROM (
  SELECT s.id, s.access, s.access_level_value FROM stories s
  WHERE s.account_id = $1::int AND s.status = 'published' AND s.access <> 'public'
  ORDER BY s.published_at DESC
  LIMIT $2::int
) AS r`;

/**
 * Read-ahead: the first check that misses a story's settings also keeps those of the account's
 * other stories a paywall asks about (the 5,000 most recently published that are not public), so
 * that each is not read by its own first check. Once per account while a marker is kept beside them (under
 * "collections": a collection change drops every kept story, and the next miss reads ahead again
 * rather than each story once; otherwise the cache's backstop lifetime), and one at a time. Each
 * kept story is what its own read would keep, under the same keys, so every change drops it as
 * before.
 */
const READ_AHEAD_STORIES = 5_000;
const readingAhead = new Set<number>();
const readAheadKey = (accountId: number) => `${accountId} access:read-ahead`;

type MeterRef = { readerKey: string; periodStart: Date };

/**
 * The period's roster: the stories counted on each reader's meter in the period, for every reader
 * the account's meter counted anything for ($2: the period's start), at most $3 readers
 * (meter_views_period_idx). `readers` says how many came, so a roster cut at $3 is told apart.
 */
const ROSTER_SQL = `
SELECT count(*)::int AS readers,
  coalesce(json_agg(json_build_array(r.reader_key, r.views)), '[]'::json) AS roster
FROM (
  SELECT m.reader_key, array_agg(m.story_id) AS views FROM meter_views m
  WHERE m.account_id = $1::int AND m.period_start = $2::timestamptz
  GROUP BY m.reader_key
  LIMIT $3::int
) AS r`;

/**
 * The period's roster (docs/subscriptions.md "Speed"): a paywall's readers are mostly new ones, and
 * each one's first check would read a meter that is not there. So the account's first meter miss
 * of a period also reads every reader's meter of the period, once, and keeps it beside the kept
 * meters while this process hears about every change (as they are kept). A reader with no kept
 * meter is answered from it: the stories it lists, or none for a reader it does not name, unless
 * that reader's meter was purged since the roster was read (a count, here or in another instance:
 * then the check reads it as before). A purge of the whole account, a cleared cache or the
 * backstop lifetime drops the roster, and the next miss reads it again; so does a new period.
 * An account with more readers in the period than `maxReaders` (about 100 bytes each) has none:
 * its checks read each meter as before, and the roster is not tried again for the lifetime.
 * Exported for access-cache.int.test.ts, which lowers `maxReaders`.
 */
export const METER_ROSTER = { maxReaders: 50_000 };

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
function rosterViews(accountId: number, meter: MeterRef): readonly string[] | undefined {
  if (!cachesAnswer()) return undefined;
  const roster = currentRoster(accountId, meter.periodStart.getTime());
  if (roster?.views == null) return undefined;
  if (responseCache().purgedSince(accountId, [meterPurgeKey(meter.readerKey)], roster.generation)) return undefined;
  return roster.views.get(meter.readerKey) ?? NO_VIEWS;
}

/** The roster as read: each reader's stories frozen, the story ids shared between readers. */
function keepRoster(accountId: number, periodMs: number, generation: number, readers: number, rows: unknown): void {
  let views: Map<string, readonly string[]> | null = null;
  if (readers <= METER_ROSTER.maxReaders) {
    views = new Map();
    const ids = new Map<string, string>();
    for (const [readerKey, stories] of parseJson<[string, string[]][] | null>(rows) ?? []) {
      const shared = stories.map((id) => ids.get(id) ?? (ids.set(id, id), id));
      views.set(readerKey, Object.freeze(shared));
    }
  }
  // Not kept if the whole account was purged while it was read (its readers' purges are checked at each use).
  if (responseCache().purgedSince(accountId, [], generation)) return;
  rosters.set(accountId, { periodMs, generation, until: Date.now() + RESPONSE_TTL_MS, views });
}

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
async function loadKept(
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

/** What a check missed: a story's settings, a meter (with the key it is kept under). */
type Missed = { storyId: string | null; meter: (MeterRef & { key: string }) | null };
type Read = { story: StoryAccess | null; views: string[] };

/**
 * What a check missed, read together with what other checks of the account missed in the same
 * turn of the event loop (../db/turn-batch.ts): one statement, whose reads are kept, then each
 * check gets its part.
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
  // The period's roster, unless there is one (of any size) or it is being read.
  const period = meters.size > 0 ? meters.values().next().value!.periodStart : null;
  const roster =
    period !== null &&
    responseCacheOn() &&
    cachesAnswer() &&
    !readingRoster.has(accountId) &&
    currentRoster(accountId, period.getTime()) === undefined;
  if (roster) readingRoster.add(accountId);
  const [[row], [readAhead], [rosterRow]] = await Promise.all([
    readRaw<{ stories: unknown; meters: unknown }>(db, KEPT_SQL, [
      accountId,
      JSON.stringify(storyIds),
      JSON.stringify([...meters.values()].map((m) => ({ k: m.readerKey, p: m.periodStart.toISOString() }))),
    ]),
    ahead ? readRaw<{ ahead: unknown }>(db, READ_AHEAD_SQL, [accountId, READ_AHEAD_STORIES]) : [],
    roster
      ? readRaw<{ readers: number; roster: unknown }>(db, ROSTER_SQL, [accountId, period, METER_ROSTER.maxReaders + 1])
      : [],
  ]).finally(() => {
    if (ahead) readingAhead.delete(accountId);
    if (roster) readingRoster.delete(accountId);
  });
  if (rosterRow) keepRoster(accountId, period!.getTime(), generation, Number(rosterRow.readers), rosterRow.roster);

  const stories = new Map<string, StoryAccess | null>();
  type StoryRow = [string, unknown, unknown[] | null] | null;
  for (const [n, found] of parseJson<[number, StoryRow][] | null>(row?.stories ?? null) ?? []) {
    const storyId = storyIds[n - 1]!;
    const story = found && storyAccessOf(found[0], found[1], found[2]);
    if (story) keepValue(accountId, storyKeyOf(accountId, storyId), generation, story, storyTags(storyId));
    stories.set(storyId, story);
  }
  const views = new Map<string, string[]>();
  const meterKeys = [...meters.keys()];
  for (const [n, counted] of parseJson<[number, string[] | null][] | null>(row?.meters ?? null) ?? []) {
    const key = meterKeys[n - 1]!;
    views.set(key, counted ?? []);
    keepValue(accountId, key, generation, counted ?? [], [meterPurgeKey(meters.get(key)!.readerKey)]);
  }
  if (ahead) keepValue(accountId, readAheadKey(accountId), generation, true, ["collections"]);
  for (const [id, access, level, collections] of parseJson<[string, string, unknown, unknown[] | null][] | null>(
    readAhead?.ahead ?? null,
  ) ?? []) {
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

/** A subscription that grants access during [start, end or grace end). Times in epoch ms. */
type CandidateSubscription = GrantingSubscription & {
  start: number | null;
  end: number | null;
  graceEnds: number | null;
};
type ReaderState = { memberId: number | null; subscriptions: CandidateSubscription[] };

/**
 * Readers' members (by id, or by the JWT user's `publisher` identity) and each member's active
 * or cancelled subscriptions (its own, through the index on subscriber_id, and the group_access
 * ones it is a member of) with their plan's and group's granted assets and their time windows:
 * for each item of $2, a JSON array of {m: member id, j: JWT user id} (one of them null), a row
 * `n` (its position). The rule of "access-granting" is subscription-state.ts's
 * accessGrantingWhere: its status part here, its time part in `grantsAt`.
 */
const READER_SQL = `
SELECT w.n, r.member_id, r.subscriptions
FROM json_array_elements($2::json) WITH ORDINALITY AS w(item, n)
CROSS JOIN LATERAL (
  WITH mem AS (
    SELECT m.id FROM members m WHERE (w.item->>'m')::int IS NOT NULL AND m.id = (w.item->>'m')::int AND m.account_id = $1::int
    UNION ALL
    SELECT mi.member_id FROM member_identities mi
    WHERE (w.item->>'m')::int IS NULL AND (w.item->>'j') IS NOT NULL
      AND mi.account_id = $1::int AND mi.provider = 'publisher' AND mi.external_id = (w.item->>'j')
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
      WHERE g.account_id = $1::int AND g.deleted_at IS NULL AND g.status IN ('active', 'cancelled')
    ), '[]'::json) AS subscriptions
) AS r`;

const readerStates = new ProcessCache<string, ReaderState>("access", { ttlMs: 10 * 60_000, maxEntries: 100_000 });

function parseJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

const epochMs = (value: string | null): number | null => (value === null ? null : new Date(value).getTime());

type ReaderMiss = { memberId: number | null; jwtUserId: string | null };

/**
 * Reader states that checks missed, read together with the others of the account's checks in the
 * same turn of the event loop (../db/turn-batch.ts): one statement for the readers who arrive at
 * once (a newsletter sent, a paywall's subscribers signing in). A batch that saw the cache cleared
 * meanwhile keeps nothing: the triggers' notice clears it at a write's commit, and a state read
 * before that commit and stored after the notice would outlive it.
 */
const readReaderStates = perTurn(async (db: Db, accountId: number, batch: ReaderMiss[]): Promise<ReaderState[]> => {
  const epoch = readerStates.epoch;
  const rows = await readRaw<{ n: unknown; member_id: unknown; subscriptions: unknown }>(db, READER_SQL, [
    accountId,
    JSON.stringify(batch.map((miss) => ({ m: miss.memberId, j: miss.memberId === null ? miss.jwtUserId : null }))),
  ]);
  type Raw = {
    id: unknown;
    type: string;
    dynamic_assets: unknown;
    start: string | null;
    end: string | null;
    grace: string | null;
    assets: GrantingSubscription["assets"] | null;
  };
  const states = new Array<ReaderState>(batch.length);
  for (const row of rows) {
    states[Number(row.n) - 1] = {
      memberId: row.member_id === null || row.member_id === undefined ? null : Number(row.member_id),
      subscriptions: parseJson<Raw[]>(row.subscriptions ?? "[]").map((s) => ({
        id: Number(s.id),
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

async function loadReaderState(
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

/** Whether a subscription grants at `now` (the time part of accessGrantingWhere). */
function grantsAt(sub: CandidateSubscription, now: number): boolean {
  if (sub.start === null || sub.start > now) return false;
  return sub.end === null || sub.end > now || (sub.graceEnds !== null && sub.graceEnds > now);
}

function responseCacheOn(): boolean {
  return getEnv().RESPONSE_CACHE_MB > 0;
}

/**
 * May this reader read this story, and why. `meter: "check"` never writes (the page view's
 * question, AMP's authorization); `meter: "count"` counts the read on the reader's meter when the
 * answer is METERING (pingbacks, and the web check when the front end asks it to count). Unknown
 * stories, another account's and unpublished ones are NOT_FOUND.
 */
export async function decideAccess(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    reader: AccessReader & { loggedIn?: boolean };
    disableMeter: boolean;
    now: Date;
    meter: "check" | "count";
  },
): Promise<AccessDecision> {
  if (!UUID.test(args.storyId)) throw new AppError("NOT_FOUND", "No published story with this id.");
  const storyId = args.storyId.toLowerCase();
  const loggedIn = args.reader.loggedIn ?? (args.reader.memberId !== null || Boolean(args.reader.jwtUserId));
  const rules = await getMeterRules(db, args.accountId, args.now.getTime());
  const periodStart = rules ? meterPeriodStart(args.now, rules.periodLength, rules.periodUnit) : null;
  const anonymousKey = meterReaderKey({ memberId: null, loggedIn: false, readerId: args.reader.readerId });
  const meterOn = Boolean(rules?.enabled && periodStart);
  const jwtUserId = args.reader.memberId === null ? (args.reader.jwtUserId ?? null) : null;

  const anonymousMeter =
    meterOn && !loggedIn && anonymousKey !== null ? { readerKey: anonymousKey, periodStart: periodStart! } : null;
  const [{ story: storyAccess, views: anonymousViews }, reader] = await Promise.all([
    loadKept(db, args.accountId, storyId, anonymousMeter),
    loadReaderState(db, args.accountId, args.reader.memberId, jwtUserId),
  ]);
  if (!storyAccess) throw new AppError("NOT_FOUND", "No published story with this id.");
  const memberId = reader.memberId;
  const readerKey = loggedIn ? (memberId === null ? null : `m:${memberId}`) : anonymousKey;
  // A logged-in reader's meter is keyed by the member, known once the reader state is.
  const views =
    loggedIn && meterOn && readerKey !== null
      ? (await loadKept(db, args.accountId, null, { readerKey, periodStart: periodStart! })).views
      : anonymousViews;
  const now = args.now.getTime();
  const subscriptions = reader.subscriptions.filter((sub) => grantsAt(sub, now));
  const decision = decideFromState({
    storyId,
    story: storyAccess,
    subscriptions,
    meter: { rules, readerKey, loggedIn, views: views.length, counted: views.includes(storyId) },
    disableMeter: args.disableMeter,
  });
  if (args.meter === "check" || decision.grantReason !== "METERING" || decision.why !== "meter:new") return decision;

  // Counting: the reader needs a key now (the route creates a JWT reader's member first).
  if (readerKey === null || !rules || !periodStart) return decision;
  const counted = await countMeteredRead(db, {
    accountId: args.accountId,
    readerKey,
    periodStart,
    storyId,
    freeStories: rules.freeStories,
    now: args.now,
  });
  if (counted.outcome === "counted" && responseCacheOn()) {
    // The count's commit dropped the kept meter here (and its notice drops it elsewhere): this
    // instance keeps the meter the count read under its lock, so that the reader's next check,
    // on the next page, is not a miss. A count another instance commits later drops it again.
    const meter = { readerKey, periodStart };
    keepValue(args.accountId, meterKeyOf(args.accountId, meter), responseCache().generation(), counted.views, [
      meterPurgeKey(readerKey),
    ]);
  }
  if (counted.outcome === "exhausted") {
    return {
      granted: false,
      grantReason: null,
      data: { ...decision.data, numberRemaining: 0, isLast: false },
      why: "meter_exhausted",
    };
  }
  return { ...decision, why: counted.outcome === "counted" ? "meter:counted" : "meter:already_counted" };
}

/** The wire answer (the access grant object): `why` stays inside. */
export function toAccessGrant(decision: AccessDecision): AccessGrant {
  return { granted: decision.granted, grantReason: decision.grantReason, data: { ...decision.data } };
}

/**
 * A pingback (AMP's amp-pingback, the web's sendBeacon): the read is decided again here, never
 * taken from the body, and counted on the reader's meter when it is a METERING read. A logged-in
 * reader never seen gets its member now (the one meter it keeps across devices). Repeated and
 * parallel pingbacks count a story once.
 */
export async function recordPingback(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    user: ApiUser | null;
    readerId: string | null;
    disableMeter: boolean;
    now: Date;
  },
): Promise<AccessDecision> {
  const reader = {
    memberId: null,
    jwtUserId: args.user?.id ?? null,
    readerId: args.readerId,
    loggedIn: Boolean(args.user),
  };
  const first = await decideAccess(db, { ...args, reader, meter: "check" });
  if (first.grantReason !== "METERING" || first.why !== "meter:new") return first;
  let memberId: number | null = null;
  if (args.user) {
    const member = await findOrCreateJwtMember(db, {
      accountId: args.accountId,
      user: args.user,
      now: args.now,
      linkProviderClaim: true,
    });
    memberId = member.id;
  }
  return decideAccess(db, {
    ...args,
    reader: { memberId, jwtUserId: null, readerId: args.readerId, loggedIn: Boolean(args.user) },
    meter: "count",
  });
}
