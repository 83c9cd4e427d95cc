/**
 * Fixed-window rate limiting, per route and per caller (IP, key, or both).
 *
 * Stores, chosen by RATE_LIMIT_STORE:
 * - memory (default): one process; bounded, expired windows are dropped;
 * - database: the rate_limit_buckets table, one atomic upsert per hit, shared by every process
 *   using the database;
 * - redis (REDIS_URL): an atomic INCR + PEXPIRE script, for several instances.
 */
import type { Db } from "../db/client";

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };
export type RateLimitResult = { allowed: boolean; limit: number; remaining: number; resetAt: Date };

export type RateLimitStore = {
  /** Count one hit on `key` in its current window; returns the count so far and when the window ends. */
  hit(key: string, windowMs: number, now: Date): Promise<{ count: number; resetAt: Date }>;
  /** Forget `key`'s window (a successful sign-in clears its failures). */
  reset(key: string): Promise<void>;
  /** For a store on another server (Redis): one round trip, which throws when it is down (health). */
  probe?(): Promise<void>;
};

export async function checkRateLimit(
  store: RateLimitStore,
  rule: RateLimitRule,
  identity: string,
  now = new Date(),
): Promise<RateLimitResult> {
  const { count, resetAt } = await store.hit(`${rule.name}:${identity}`, rule.windowSeconds * 1000, now);
  return { allowed: count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetAt };
}

/** Forget what `rule` counted for `identity`. */
export async function resetRateLimit(store: RateLimitStore, rule: RateLimitRule, identity: string): Promise<void> {
  await store.reset(`${rule.name}:${identity}`);
}

/** Whole seconds until `result`'s window ends (0 once it has). */
function secondsUntilReset(result: RateLimitResult, now: Date): number {
  return Math.max(0, Math.ceil((result.resetAt.getTime() - now.getTime()) / 1000));
}

/** When a refused caller may try again: whole seconds, at least 1 (the Retry-After value). */
export function retryAfterSeconds(result: RateLimitResult, now = new Date()): number {
  return Math.max(1, secondsUntilReset(result, now));
}

/** Headers for a response (IETF RateLimit fields; Retry-After when refused). */
export function rateLimitHeaders(result: RateLimitResult, now = new Date()): Record<string, string> {
  return {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(secondsUntilReset(result, now)),
    ...(result.allowed ? {} : { "Retry-After": String(retryAfterSeconds(result, now)) }),
  };
}

// ─── Stores ──────────────────────────────────────────────────────────────────────────────────

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly maxKeys = 50_000) {}

  async hit(key: string, windowMs: number, now: Date) {
    const t = now.getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= t) {
      if (this.windows.size >= this.maxKeys) this.sweep(t);
      window = { count: 0, resetAt: t + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetAt: new Date(window.resetAt) };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  /** Drop expired windows; if that is not enough, the oldest entries (insertion order). */
  private sweep(t: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= t) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

export class DatabaseRateLimitStore implements RateLimitStore {
  constructor(private readonly getDb: () => Promise<Db>) {}

  async hit(key: string, windowMs: number, now: Date) {
    const db = await this.getDb();
    const resetAt = new Date(now.getTime() + windowMs);
    const rows = await db.$queryRaw<{ count: number; reset_at: Date }[]>`
      INSERT INTO rate_limit_buckets (key, count, reset_at) VALUES (${key}, 1, ${resetAt})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limit_buckets.reset_at <= ${now} THEN 1 ELSE rate_limit_buckets.count + 1 END,
        reset_at = CASE WHEN rate_limit_buckets.reset_at <= ${now} THEN ${resetAt} ELSE rate_limit_buckets.reset_at END
      RETURNING count, reset_at`;
    const row = rows[0]!;
    return { count: Number(row.count), resetAt: new Date(row.reset_at) };
  }

  async reset(key: string) {
    const db = await this.getDb();
    await db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key = ${key}`;
  }
}

type RedisLike = {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
};

const REDIS_HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** Redis keeps the window with its own clock (PEXPIRE); `now` only dates the reset. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: RedisLike,
    private readonly prefix = "masthead:rl:",
  ) {}

  async hit(key: string, windowMs: number, now: Date) {
    const [count, ttl] = (await this.redis.eval(REDIS_HIT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count: Number(count), resetAt: new Date(now.getTime() + Number(ttl)) };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async probe() {
    await this.redis.eval("return 1", 0);
  }
}
