/** The process's rate-limit store, from RATE_LIMIT_STORE (see ./index.ts). */
import { DatabaseRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from ".";
import { getEnv } from "../../env.js";
import { getDb } from "../db";
import { log } from "../log";

const globalForRateLimit = globalThis as unknown as { mastheadRateLimitStore?: Promise<RateLimitStore> };

export function getRateLimitStore(): Promise<RateLimitStore> {
  globalForRateLimit.mastheadRateLimitStore ??= (async () => {
    const env = getEnv();
    if (env.RATE_LIMIT_STORE === "database") return new DatabaseRateLimitStore(getDb);
    if (env.RATE_LIMIT_STORE === "redis") {
      const { Redis } = await import("ioredis");
      const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 2, lazyConnect: false });
      // ioredis reconnects by itself; say once that Redis went away and once that it is back
      // (without a listener it prints every failed reconnect to stderr).
      let down = false;
      redis.on("error", (error: Error) => {
        if (!down)
          log.warn("Redis is unreachable: rate-limited routes fail until it is back", { error: error.message });
        down = true;
      });
      redis.on("ready", () => {
        if (down) log.info("Redis is reachable again");
        down = false;
      });
      return new RedisRateLimitStore(redis);
    }
    return new MemoryRateLimitStore();
  })();
  return globalForRateLimit.mastheadRateLimitStore;
}
