/**
 * Throttling of dashboard sign-in attempts, in this process's memory.
 *
 * A tiny fixed-window counter kept local to sign-in on purpose: the general rate limiter
 * (server/rate-limit, with database and Redis stores) did not exist when this was written. When
 * it lands, sign-in should move onto it so several processes share the counts.
 *
 * Two limits, both counting every attempt (right or wrong, known e-mail or not, so the limit
 * reveals nothing about which e-mails exist):
 *   - per e-mail and client IP: 10 per 15 minutes, the one a mistyping person meets;
 *   - per e-mail from anywhere: 100 per 15 minutes, a backstop for when the client IP cannot be
 *     trusted (without TRUST_PROXY a client can send its own X-Forwarded-For and pick a new "IP"
 *     for every guess). It lets someone hold one known e-mail's sign-in up for 15 minutes; that is
 *     the price of not letting them guess its password at full speed.
 * A successful sign-in clears the e-mail+IP counter.
 */
import "server-only";

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Window = { count: number; resetAt: number };

export type FixedWindowLimiter = {
  /** Count one hit on `key` and say whether it is within the limit. */
  hit: (key: string, now?: number) => RateLimitDecision;
  reset: (key: string) => void;
};

/** Entries beyond this are pruned of expired windows, so memory stays bounded under a flood. */
const PRUNE_ABOVE = 10_000;

export function createFixedWindowLimiter(options: { limit: number; windowMs: number }): FixedWindowLimiter {
  const windows = new Map<string, Window>();
  return {
    hit(key, now = Date.now()) {
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        if (windows.size >= PRUNE_ABOVE) {
          for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        }
        window = { count: 0, resetAt: now + options.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= options.limit) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_LIMIT_PER_EMAIL_AND_IP = 10;
export const SIGN_IN_LIMIT_PER_EMAIL = 100;

export type SignInThrottle = {
  /** Count an attempt; a refusal carries when to try again. */
  attempt: (args: { email: string; ip: string | null }, now?: number) => RateLimitDecision;
  succeeded: (args: { email: string; ip: string | null }) => void;
};

export function createSignInThrottle(
  options: { windowMs?: number; perEmailAndIp?: number; perEmail?: number } = {},
): SignInThrottle {
  const windowMs = options.windowMs ?? SIGN_IN_WINDOW_MS;
  const byEmailAndIp = createFixedWindowLimiter({
    limit: options.perEmailAndIp ?? SIGN_IN_LIMIT_PER_EMAIL_AND_IP,
    windowMs,
  });
  const byEmail = createFixedWindowLimiter({ limit: options.perEmail ?? SIGN_IN_LIMIT_PER_EMAIL, windowMs });
  const pairKey = (email: string, ip: string | null) => `${email}\n${ip ?? "unknown"}`;
  return {
    attempt({ email, ip }, now) {
      const pair = byEmailAndIp.hit(pairKey(email, ip), now);
      if (!pair.allowed) return pair;
      return byEmail.hit(email, now);
    },
    succeeded({ email, ip }) {
      byEmailAndIp.reset(pairKey(email, ip));
    },
  };
}

const globalForThrottle = globalThis as unknown as { mastheadSignInThrottle?: SignInThrottle };

/** The process's sign-in throttle (on globalThis: Next.js may load this module more than once). */
export function getSignInThrottle(): SignInThrottle {
  globalForThrottle.mastheadSignInThrottle ??= createSignInThrottle();
  return globalForThrottle.mastheadSignInThrottle;
}
