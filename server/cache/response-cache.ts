/**
 * Built public responses, kept in each process and dropped by the purge keys they carry
 * (docs/architecture.md "Response cache").
 *
 * A public read (a story, a list, a collection, config, a feed, a page's comments, comment counts)
 * is built once per version: the answer's body, content type, ETag and purge keys are kept under
 * the request (account, path and query); the next identical request is answered from memory, with
 * the same ETag and 304. The purge keys are the ones the response already sends to CDNs
 * (`Cache-Tag`: `s/<story-id>`, `stories`, `c/<collection-id>`, `config`, `page/<page-id>`…), and the
 * change that alters a response drops it by the same keys: the database announces them at commit
 * (./process-cache.ts). A content event's row names its keys ("purge-keys", "purge-all"), the
 * same list the CDN is purged by; the tables a comment list shows announce the account's
 * "comments"; a reader's new meter view its "meter/<reader>".
 *
 * Never stale, by construction:
 * - it answers only while this process hears about every change (./process-cache.ts modes);
 * - a response built while a purge of one of its keys committed is not kept: every purge takes the
 *   next number of a sequence, read before the build and compared, when storing, with the last
 *   purge of each of the answer's keys and of its account as a whole (a build that read the old
 *   rows and finished after the purge would otherwise outlive it); purges of other keys (a
 *   reader's meter, a comment elsewhere) do not hold it back;
 * - entries also expire (a backstop, and the answer may ask for less: breaking news lives until
 *   its first expiry).
 *
 * Serialised and encoded once per version: the kept answer holds its body as the bytes sent.
 *
 * Bounded in memory: at most RESPONSE_CACHE_MB of bodies, least recently used dropped first.
 */
import { getEnv } from "../../env.js";
import { cachesAnswer, clearCaches, markerHeard, readNotice, registerCache, type ResponsePurge } from "./process-cache";

export type CachedResponse = {
  /** The body as sent: UTF-8 bytes, encoded once when built. */
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
  /** Purge keys (Cache-Tag). */
  tags: readonly string[];
  /** Other headers of the answer (Cache-Control, Vary…), as built. */
  headers: Record<string, string>;
  /** A kept value (keepValue): the body parsed once, frozen, handed to every reader of it. */
  value?: unknown;
};

type Entry = CachedResponse & {
  account: number;
  bytes: number;
  until: number;
  /** The number of the append (a set, or a hit moving it to the end) that last put it at the end. */
  at: number;
};

/** The backstop lifetime of an entry: purges drop it long before, when its content changes. */
export const RESPONSE_TTL_MS = 10 * 60_000;
/** A body larger than this is not kept (it would push out hundreds of others). */
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;

export class ResponseCache {
  /**
   * Insertion order is recency: a hit moves its entry to the end, unless it is among the last
   * quarter of the entries put there (it is safe from eviction for a while yet). Moving costs a
   * delete and a set on the map, on every hit of every hot key; this keeps it nearly LRU without.
   */
  private readonly entries = new Map<string, Entry>();
  /** Counts appends to `entries` (an entry's `at`). */
  private appends = 0;
  /** "<account> <tag>" → keys of the entries carrying it. */
  private readonly byTag = new Map<string, Set<string>>();
  /** Numbers every purge (see the header): what `generation` answers. */
  private sequence = 0;
  /** "<account> <tag>" (or "<account> *" for all of its entries) → the number of its last purge. */
  private readonly purgedAt = new Map<string, number>();
  /** Builds that started before this number are not kept (the purge record above was forgotten). */
  private floor = 0;
  /** Account → the number of its last purge, whatever the keys (a build under way may predate it). */
  private readonly accountPurgedAt = new Map<number, number>();
  /** Builds under way, by key: requests for the same key wait for them (`buildUnderWay`). */
  private readonly builds = new Map<string, { generation: number; result: Promise<unknown> }>();
  private bytes = 0;

  constructor(private readonly maxBytes: () => number) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** The purge sequence's number now: read it before a build, give it to `set` after. */
  generation(): number {
    return this.sequence;
  }

  /**
   * Was `account` purged, wholly or by one of `tags`, after `generation` was read? (Also for
   * what is kept beside this cache by the same rules: an access check's roster of meters.)
   */
  purgedSince(account: number, tags: readonly string[], generation: number): boolean {
    if (generation < this.floor) return true;
    if ((this.purgedAt.get(`${account} *`) ?? 0) > generation) return true;
    return tags.some((tag) => (this.purgedAt.get(`${account} ${tag}`) ?? 0) > generation);
  }

  /**
   * The result of a build of `key` under way that a request may wait for instead of building the
   * same answer again (concurrent misses build once), unless the account was purged since it
   * started: then it may predate the change, and the request builds its own.
   */
  buildUnderWay<T>(key: string, account: number): Promise<T> | undefined {
    const build = this.builds.get(key);
    if (!build || !cachesAnswer()) return undefined;
    if (build.generation < this.floor || (this.accountPurgedAt.get(account) ?? 0) > build.generation) return undefined;
    return build.result as Promise<T>;
  }

  /** Announce a build of `key` (read `generation` before it started) for others to wait for. */
  building(key: string, generation: number, result: Promise<unknown>): void {
    const build = { generation, result };
    this.builds.set(key, build);
    const done = () => {
      if (this.builds.get(key) === build) this.builds.delete(key);
    };
    result.then(done, done);
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    if (!cachesAnswer() || this.maxBytes() === 0) return undefined;
    const entry = this.entries.get(key);
    if (!entry || entry.until <= now) {
      if (entry) this.remove(key);
      return undefined;
    }
    if (this.appends - entry.at > this.entries.size >> 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.at = ++this.appends;
    }
    return entry;
  }

  /**
   * Keep `response` under `key`, unless one of its keys (or its whole account) was purged since
   * `generation` was read (before the response was built) or caches may not answer.
   */
  set(
    key: string,
    account: number,
    generation: number,
    response: CachedResponse,
    options: { ttlMs?: number; now?: number } = {},
  ): void {
    const max = this.maxBytes();
    if (!cachesAnswer() || max === 0 || this.purgedSince(account, response.tags, generation)) return;
    const bytes = response.body.byteLength + key.length * 2 + 512;
    if (bytes > Math.min(MAX_ENTRY_BYTES, max)) return;
    const now = options.now ?? Date.now();
    const entry: Entry = {
      ...response,
      account,
      bytes,
      until: now + Math.min(options.ttlMs ?? RESPONSE_TTL_MS, RESPONSE_TTL_MS),
      at: ++this.appends,
    };
    const kept = this.entries.get(key);
    if (kept && kept.account === account && sameTags(kept.tags, entry.tags)) {
      // The answer built again (a no-cache read) under the same keys: indexed by them already.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.bytes += bytes - kept.bytes;
      this.dropOldest(max);
      return;
    }
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += bytes;
    for (const tag of new Set(entry.tags)) {
      const id = `${account} ${tag}`;
      const keys = this.byTag.get(id) ?? new Set();
      keys.add(key);
      this.byTag.set(id, keys);
    }
    this.dropOldest(max);
  }

  /** Drop the least recently used entries until the bodies fit in `max` bytes. */
  private dropOldest(max: number): void {
    for (const [oldest] of this.entries) {
      if (this.bytes <= max) break;
      this.remove(oldest);
    }
  }

  /** Drop the account's entries carrying any of `tags` (null: every entry of the account). */
  purge({ account, tags }: ResponsePurge): void {
    const number = ++this.sequence;
    for (const tag of tags ?? ["*"]) this.purgedAt.set(`${account} ${tag}`, number);
    this.accountPurgedAt.set(account, number);
    // Bounded: past 50,000 purged keys (a reader's meter is one each), start again from here.
    if (this.purgedAt.size > 50_000) {
      this.purgedAt.clear();
      this.floor = number;
    }
    if (tags === null) {
      for (const [key, entry] of this.entries) if (entry.account === account) this.remove(key);
      return;
    }
    for (const tag of tags) {
      const keys = this.byTag.get(`${account} ${tag}`);
      if (keys) for (const key of [...keys]) this.remove(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.byTag.clear();
    this.bytes = 0;
    // Builds under way when everything was dropped (the listener reconnected) are not kept either.
    this.floor = ++this.sequence;
    this.purgedAt.clear();
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const id = `${entry.account} ${tag}`;
      const keys = this.byTag.get(id);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(id);
    }
  }
}

const sameTags = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

const globalForResponses = globalThis as unknown as { mastheadResponses?: ResponseCache };

/** This process's response cache (on globalThis: one for every bundle Next.js loads). */
export function responseCache(): ResponseCache {
  if (!globalForResponses.mastheadResponses) {
    const cache = new ResponseCache(() => getEnv().RESPONSE_CACHE_MB * 1024 * 1024);
    registerCache("*", cache);
    globalForResponses.mastheadResponses = cache;
  }
  return globalForResponses.mastheadResponses;
}

/** Apply purges in this process (what its listener heard). */
function applyPurges(purges: readonly ResponsePurge[]): void {
  const cache = responseCache();
  for (const purge of purges) cache.purge(purge);
}

/**
 * What a notification on the deployment's channel asks of this process, done: the topics it names
 * cleared, the responses it names dropped, a marker of this process's heard. Heard by the
 * PostgreSQL listener and, on PGlite, from the database itself (./listener.ts).
 */
export function applyNotice(payload: string | undefined): void {
  const { topics, purges, heard } = readNotice(payload);
  if (heard) markerHeard(heard);
  if (topics.length) clearCaches(topics);
  if (purges.length) applyPurges(purges);
}

/**
 * Values built from the database and kept beside the responses, by the same purge keys and the
 * same rules (an access check's story settings, a reader's meter), for a reader that loads several
 * values with one statement: what is kept under `key` (undefined when nothing is), and keeping a
 * value read after `generation` (`responseCache().generation()`, read before the statement) unless
 * a purge of its keys came since. Values are kept as JSON, so they must survive JSON (no Dates, no
 * Maps), and are read as that JSON parsed once and frozen: every reader gets the same value, which
 * none may change.
 */
export function peekKept<T>(key: string): T | undefined {
  return responseCache().get(key)?.value as T | undefined;
}

export function keepValue(account: number, key: string, generation: number, value: unknown, tags: readonly string[]) {
  // The JSON is the entry's size, and parsing it back gives a copy that survives JSON as the
  // value's readers expect: frozen, it is read on every check without being parsed again.
  const body = JSON.stringify(value) as string | undefined;
  if (body === undefined) return;
  responseCache().set(key, account, generation, {
    body: Buffer.from(body),
    contentType: KEPT_VALUE_TYPE,
    etag: "",
    tags,
    headers: {},
    value: deepFreeze(JSON.parse(body) as unknown),
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
const KEPT_VALUE_TYPE = "application/vnd.masthead.kept-value+json";
