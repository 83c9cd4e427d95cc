/** The process's rate-limit store, from RATE_LIMIT_STORE (see ./index.ts). */
import { DatabaseRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from ".";
import { getEnv } from "../../env.js";
import { getDb } from "../db";

const globalForRateLimit = globalThis as unknown as { mastheadRateLimitStore?: Promise<RateLimitStore> };

export function getRateLimitStore(): Promise<RateLimitStore> {
  globalForRateLimit.mastheadRateLimitStore ??= (async () => {
    const env = getEnv();
    if (env.RATE_LIMIT_STORE === "database") return new DatabaseRateLimitStore(getDb);
    if (env.RATE_LIMIT_STORE === "redis") {
      const { Redis } = await import("ioredis");
      return new RedisRateLimitStore(new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 2, lazyConnect: false }));
    }
    return new MemoryRateLimitStore();
  })();
  return globalForRateLimit.mastheadRateLimitStore;
}
