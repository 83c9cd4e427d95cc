/**
 * In-process caches that every instance drops when a change commits anywhere.
 *
 * A cache here is a bounded map with a time-to-live, registered under a topic ("publisher"; later
 * issues add theirs). A service that changes what a topic caches calls, inside its transaction:
 *
 *   await invalidateCaches(tx, "publisher");
 *
 * which does two things, both tied to the commit:
 * - `pg_notify` on the deployment's channel: PostgreSQL delivers a notification only when (and if)
 *   the transaction commits, to every instance listening (./listener.ts), which clears the topic;
 * - `afterCommit`: this process clears the topic itself, at once.
 *
 * A cache answers only while this process is sure to hear about changes: on the embedded PGlite
 * (one process holds the database) or while the PostgreSQL listener is connected. Without a
 * listener (it lost its connection, a script, a serverless function) every `get` misses and the
 * reads go to the database: slower, never stale. The TTL is a backstop, not the mechanism.
 *
 * State lives on globalThis: Next.js loads a module once per bundle (instrumentation, each route),
 * and the listener started in one must clear the caches the others fill.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import { afterCommit } from "../db/transaction";

/**
 * What the processes cache, by what changes it: "publisher" (settings), "api-keys" (an account's
 * keys and JWT secret: rotation), "meter" (an account's paywall meter settings), "access" (readers'
 * access-granting subscriptions: announced by the database's own triggers on every write to them,
 * migration 20261124100000_access_change_notices), "webhook-endpoints" (the endpoints events are
 * sent to: announced by the database's trigger, migration comment_and_webhook_endpoint_notices),
 * "moderation" (an account's comment moderation settings).
 */
export const CACHE_TOPICS = ["publisher", "api-keys", "meter", "access", "webhook-endpoints", "moderation"] as const;
// Built responses are not a topic: they are dropped by purge keys (./response-cache.ts).
export type CacheTopic = (typeof CACHE_TOPICS)[number];

/** Anything a change can empty: a ProcessCache, or the response cache (registered under "*"). */
export type Clearable = { clear(): void };

type Registry = {
  caches: Map<CacheTopic | "*", Set<Clearable>>;
  /** "local": one process holds the database (PGlite); "listening": the PostgreSQL listener is up; "off": nothing tells this process about changes. */
  mode: "local" | "listening" | "off";
  /** This process, in notifications: a process ignores its own (it cleared at commit already). */
  instanceId: string;
};

const globalForCaches = globalThis as unknown as { mastheadCaches?: Registry };

function registry(): Registry {
  globalForCaches.mastheadCaches ??= {
    caches: new Map(),
    mode: "off",
    instanceId: `${process.pid}-${randomUUID().slice(0, 8)}`,
  };
  return globalForCaches.mastheadCaches;
}

/**
 * The notification channel of a database schema: one per deployment, so that two deployments (or
 * test runs) sharing a PostgreSQL server in different schemas do not clear each other's caches.
 * The same rule as CACHE_CHANNEL_SQL (an identifier: at most 63 bytes).
 */
export function cacheChannel(schema: string): string {
  return `masthead_cache_${schema}`.slice(0, 63);
}
/** The channel of the connection's own schema, as an SQL expression (notices, and PGlite's own listening). */
export const CACHE_CHANNEL_SQL = "left('masthead_cache_' || current_schema(), 63)";

/** Say whether caches may answer (called at start, and by the listener as it connects and drops). */
export function setCacheMode(mode: Registry["mode"]): void {
  const state = registry();
  if (mode !== state.mode) clearAllCaches();
  state.mode = mode;
}

export function cacheState(): { mode: Registry["mode"]; instanceId: string } {
  const { mode, instanceId } = registry();
  return { mode, instanceId };
}

export class ProcessCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  /** How many times this cache was cleared: read before loading a value, given to `set`. */
  private clears = 0;

  constructor(
    readonly topic: CacheTopic,
    private readonly options: { ttlMs: number; maxEntries: number },
  ) {
    registerCache(topic, this);
  }

  get(key: K, now = Date.now()): V | undefined {
    if (!cachesAnswer()) return undefined;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  get epoch(): number {
    return this.clears;
  }

  /**
   * Keep `value` under `key`. With `since` (the `epoch` read before the value was loaded from the
   * database): not if the cache was cleared meanwhile, since the value may predate that change.
   */
  set(key: K, value: V, now = Date.now(), since?: number): void {
    if (!cachesAnswer() || (since !== undefined && since !== this.clears)) return;
    if (this.entries.size >= this.options.maxEntries) {
      for (const [cachedKey, cached] of this.entries) if (cached.until <= now) this.entries.delete(cachedKey);
      // Every key a client makes up (a Host header) is an entry: past the bound, start again.
      if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    }
    this.entries.set(key, { value, until: now + this.options.ttlMs });
  }

  /**
   * The value under `key`, or `read`'s, kept unless the cache was cleared while it was read (it
   * may predate that change: `set` with `since`).
   */
  async load(key: K, read: () => Promise<V>): Promise<V> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const since = this.clears;
    const value = await read();
    this.set(key, value, Date.now(), since);
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.clears++;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Register a cache to be cleared with `topic` ("*": only when every cache is). */
export function registerCache(topic: CacheTopic | "*", cache: Clearable): void {
  const state = registry();
  const set = state.caches.get(topic) ?? new Set();
  set.add(cache);
  state.caches.set(topic, set);
}

/** May caches answer now (something tells this process about every change)? */
export function cachesAnswer(): boolean {
  return registry().mode !== "off";
}

/** Drop every entry of `topics` in this process. */
export function clearCaches(topics: readonly CacheTopic[]): void {
  const { caches } = registry();
  for (const topic of topics) for (const cache of caches.get(topic) ?? []) cache.clear();
}

/** Drop every entry of every cache in this process (the listener reconnected: it may have missed changes). */
export function clearAllCaches(): void {
  for (const set of registry().caches.values()) for (const cache of set) cache.clear();
}

/**
 * A notification: `topics` to clear, and `purges`: built responses to drop, by account and purge
 * key (`tags: null`: all of the account's).
 */
export type CacheNotice = { instance: string; topics: CacheTopic[]; purges?: ResponsePurge[] };
export type ResponsePurge = { account: number; tags: string[] | null };

/**
 * Announce that `topics` changed in `db`'s transaction: every instance clears them once it
 * commits (nothing happens on a rollback).
 */
export async function invalidateCaches(db: Db, ...topics: CacheTopic[]): Promise<void> {
  await notify(db, { topics, purges: [] }, () => clearCaches(topics));
}

/**
 * `topics` changed in `db`'s transaction and the database's own triggers announce it to every
 * instance: this process clears them once it commits, at once rather than when the notice comes
 * back to it (what it has just written, it reads). No statement of its own.
 */
export function clearCachesAtCommit(db: Db, ...topics: CacheTopic[]): void {
  afterCommit(db, () => clearCaches(topics));
}

/** PostgreSQL refuses a notification payload of 8,000 bytes or more. */
const MAX_PAYLOAD = 7_000;

/**
 * Announce a change in `db`'s transaction: each instance runs what the notice asks once it commits
 * (this one through `local`, the others through their listener). A notice too long for
 * pg_notify drops all of each account's responses instead of naming keys.
 */
export async function notify(
  db: Db,
  change: { topics: CacheTopic[]; purges: ResponsePurge[] },
  local: () => void,
): Promise<void> {
  let notice: CacheNotice = { instance: registry().instanceId, ...change };
  if (JSON.stringify(notice).length > MAX_PAYLOAD) {
    const accounts = [...new Set(change.purges.map((p) => p.account))];
    notice = { ...notice, purges: accounts.map((account) => ({ account, tags: null })) };
  }
  await db.$executeRawUnsafe(`SELECT pg_notify(${CACHE_CHANNEL_SQL}, $1)`, JSON.stringify(notice));
  afterCommit(db, local);
}

/**
 * What a notification asks of this process: the topics to clear and the responses to drop, or
 * nothing (its own, or not ours).
 */
export function readNotice(
  payload: string | undefined,
  instanceId: string,
): { topics: CacheTopic[]; purges: ResponsePurge[] } {
  const nothing = { topics: [], purges: [] };
  try {
    const notice = JSON.parse(payload ?? "") as Partial<CacheNotice>;
    if (!notice || notice.instance === instanceId) return nothing;
    const topics = Array.isArray(notice.topics)
      ? notice.topics.filter((topic): topic is CacheTopic => (CACHE_TOPICS as readonly unknown[]).includes(topic))
      : [];
    const purges = Array.isArray(notice.purges)
      ? notice.purges.filter(
          (p): p is ResponsePurge =>
            Boolean(p) &&
            Number.isInteger(p.account) &&
            (p.tags === null || (Array.isArray(p.tags) && p.tags.every((t) => typeof t === "string"))),
        )
      : [];
    return { topics, purges };
  } catch {
    return nothing;
  }
}
