/**
 * In-process caches that every instance drops when a change commits anywhere.
 *
 * A cache here is a bounded map with a time-to-live, registered under a topic ("publisher",
 * "access"…). What changes a topic is announced by the database itself: triggers on the tables it
 * is read from send a notice on the deployment's channel at commit (pg_notify: nothing on a
 * rollback), whoever writes (a service, a job, a cascade, SQL by hand). The built responses of
 * ./response-cache.ts are announced on the same channel, by their purge keys (migration
 * 20261125200000_changes_announced_by_the_database lists every trigger). Each instance, the
 * writer's included, acts on what it hears:
 * - on PGlite, one process holds the database and hears its notices as the commit returns;
 * - on PostgreSQL, the listener (./listener.ts) hears them a moment after the commit: a process
 *   that has just written waits for its own listener to hear it before it answers (ownWritesHeard:
 *   after every transaction, server/db/transaction.ts, and after every write request), so that a
 *   reader reads back what they wrote.
 *
 * A cache answers only while this process is sure to hear about changes: on PGlite, or while the
 * PostgreSQL listener is connected. Without a listener (it lost its connection, a script, a
 * serverless function) every `get` misses and the reads go to the database: slower, never stale.
 * The TTL is a backstop, not the mechanism.
 *
 * State lives on globalThis: Next.js loads a module once per bundle (instrumentation, each route),
 * and the listener started in one must clear the caches the others fill.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import { isTransaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";

/**
 * What the processes cache, by the tables whose writes clear it: "publisher" (accounts,
 * publisher_configs), "api-keys" (api_keys but their last use, accounts' JWT secrets), "meter"
 * (meter_settings), "access" (readers' access-granting subscriptions and what they grant),
 * "webhook-endpoints" (webhook_endpoints), "moderation" (comment_moderation_settings,
 * comment_scoring_settings), "moderation-surges" (page_surges), "collections" (collections, and
 * which section's collection each is), "message-overrides" (message_overrides: an owner's own words).
 */
const CACHE_TOPICS = [
  "publisher",
  "collections",
  "api-keys",
  "meter",
  "access",
  "webhook-endpoints",
  "moderation",
  "moderation-surges",
  "message-overrides",
] as const;
// Built responses are not a topic: they are dropped by purge keys (./response-cache.ts).
type CacheTopic = (typeof CACHE_TOPICS)[number];

/** Anything a change can empty: a ProcessCache, or the response cache (registered under "*"). */
type Clearable = { clear(): void };

type Registry = {
  caches: Map<CacheTopic | "*", Set<Clearable>>;
  /** "local": one process holds the database (PGlite); "listening": the PostgreSQL listener is up; "off": nothing tells this process about changes. */
  mode: "local" | "listening" | "off";
  /** This process, in its listener's name and its own markers (ownWritesHeard). */
  instanceId: string;
  /** Markers this process sent and waits to hear back, by marker. */
  waiting: Map<string, () => void>;
  markers: number;
};

const globalForCaches = globalThis as unknown as { mastheadCaches?: Registry };

function registry(): Registry {
  globalForCaches.mastheadCaches ??= {
    caches: new Map(),
    mode: "off",
    instanceId: `${process.pid}-${randomUUID().slice(0, 8)}`,
    waiting: new Map(),
    markers: 0,
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
const CACHE_CHANNEL_SQL = "left('masthead_cache_' || current_schema(), 63)";

/** Say whether caches may answer (called at start, and by the listener as it connects and drops). */
export function setCacheMode(mode: Registry["mode"]): void {
  const state = registry();
  if (mode !== state.mode) clearAllCaches();
  state.mode = mode;
  // Nobody waits for a listener that is gone: caches are off (and empty) without it.
  if (mode !== "listening") for (const marker of [...state.waiting.keys()]) markerHeard(marker);
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
 * key (`tags: null`: all of the account's); or `heard`: a marker a process sent itself.
 */
type CacheNotice = { topics?: CacheTopic[]; purges?: ResponsePurge[]; heard?: string };
export type ResponsePurge = { account: number; tags: string[] | null };

/** How long a process waits to hear its own marker before it answers anyway. */
const HEARD_TIMEOUT_MS = 2_000;

/**
 * Resolve once this process has heard every notice of what `db` has committed so far: on
 * PostgreSQL with the listener up, a marker sent through `db` after those commits comes back to
 * the listener after their notices (PostgreSQL delivers notifications in commit order). Nothing
 * to wait for on PGlite (its notices come with the commit), without a listener (caches are off),
 * or inside a transaction (the wait comes after its commit, in withTransaction).
 */
export async function ownWritesHeard(db: Db): Promise<void> {
  const state = registry();
  const client: Db = db;
  if (state.mode !== "listening" || isTransaction(db)) return;
  const marker = `${state.instanceId}:${++state.markers}`;
  const heard = new Promise<void>((resolve) => state.waiting.set(marker, resolve));
  const timer = setTimeout(() => {
    log.warn("cache invalidation: the listener did not hear this process's marker in time", { marker });
    markerHeard(marker);
  }, HEARD_TIMEOUT_MS);
  try {
    await client.$executeRaw`SELECT pg_notify(${Prisma.raw(CACHE_CHANNEL_SQL)}, ${JSON.stringify({ heard: marker })})`;
    await heard;
  } finally {
    clearTimeout(timer);
    state.waiting.delete(marker);
  }
}

/** A marker this process sent came back: whoever waits for it goes on. */
export function markerHeard(marker: string): void {
  const state = registry();
  const resolve = state.waiting.get(marker);
  state.waiting.delete(marker);
  resolve?.();
}

/** A notification's topics, purges and marker; nothing of what is not one. */
export function readNotice(payload: string | undefined): {
  topics: CacheTopic[];
  purges: ResponsePurge[];
  heard?: string;
} {
  const nothing = { topics: [], purges: [] };
  try {
    const notice = JSON.parse(payload ?? "") as Partial<CacheNotice>;
    if (!notice || typeof notice !== "object") return nothing;
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
    return { topics, purges, ...(typeof notice.heard === "string" ? { heard: notice.heard } : {}) };
  } catch {
    return nothing;
  }
}
