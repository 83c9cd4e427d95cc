/**
 * Limits a service enforces itself, beyond its route's (per e-mail, per account…): one hit on
 * each (rule, identity), in order; the first refused one is RATE_LIMITED with Retry-After.
 */
import { AppError } from "../errors";
import { checkRateLimit, rateLimitHeaders, type RateLimitRule } from "./index";
import { getRateLimitStore } from "./store";

export async function assertWithinRateLimits(
  checks: readonly (readonly [RateLimitRule, string])[],
  message: string,
  now: Date,
): Promise<void> {
  const store = await getRateLimitStore();
  for (const [rule, identity] of checks) {
    const result = await checkRateLimit(store, rule, identity, now);
    if (!result.allowed) throw new AppError("RATE_LIMITED", message, { headers: rateLimitHeaders(result, now) });
  }
}
