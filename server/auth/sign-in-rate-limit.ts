/**
 * Throttling of dashboard sign-in attempts, on the platform's rate-limit store (server/rate-limit:
 * memory for one process, the database or Redis when several instances must share the counts).
 *
 * Two limits, both counting every attempt (right or wrong, known e-mail or not, so the limit
 * reveals nothing about which e-mails exist):
 *   - per e-mail and client IP: 10 per 15 minutes, the one a mistyping person meets;
 *   - per e-mail from anywhere: 100 per 15 minutes, a backstop for when the client IP cannot be
 *     trusted (on Vercel without TRUST_PROXY a client can send its own X-Forwarded-For and pick a
 *     new "IP" for every guess; under scripts/serve.mjs the socket's address counts) or the
 *     guesses come from many addresses. It lets someone hold one known e-mail's sign-in up for 15 minutes; that is
 *     the price of not letting them guess its password at full speed.
 * A successful sign-in clears the e-mail+IP counter.
 */
import "server-only";

import {
  checkRateLimit,
  resetRateLimit,
  retryAfterSeconds,
  type RateLimitRule,
  type RateLimitStore,
} from "../rate-limit";
import { addressBucket } from "../rate-limit/address";
import { getRateLimitStore } from "../rate-limit/store";

type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
const SIGN_IN_LIMIT_PER_EMAIL_AND_IP = 10;
const SIGN_IN_LIMIT_PER_EMAIL = 100;

export type SignInThrottle = {
  /** Count an attempt; a refusal carries when to try again. */
  attempt: (args: { email: string; ip: string | null }, now?: Date) => Promise<RateLimitDecision>;
  succeeded: (args: { email: string; ip: string | null }) => Promise<void>;
};

export function createSignInThrottle(
  getStore: () => Promise<RateLimitStore>,
  options: { windowMs?: number; perEmailAndIp?: number; perEmail?: number } = {},
): SignInThrottle {
  const windowSeconds = Math.ceil((options.windowMs ?? SIGN_IN_WINDOW_MS) / 1000);
  const byEmailAndIp: RateLimitRule = {
    name: "admin.sign-in",
    limit: options.perEmailAndIp ?? SIGN_IN_LIMIT_PER_EMAIL_AND_IP,
    windowSeconds,
  };
  const byEmail: RateLimitRule = {
    name: "admin.sign-in-any-ip",
    limit: options.perEmail ?? SIGN_IN_LIMIT_PER_EMAIL,
    windowSeconds,
  };
  const pair = (email: string, ip: string | null) => `${email}\n${addressBucket(ip ?? "unknown")}`;
  const decide = async (rule: RateLimitRule, identity: string, now: Date): Promise<RateLimitDecision> => {
    const result = await checkRateLimit(await getStore(), rule, identity, now);
    return result.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(result, now) };
  };
  return {
    async attempt({ email, ip }, now = new Date()) {
      const first = await decide(byEmailAndIp, pair(email, ip), now);
      if (!first.allowed) return first;
      return decide(byEmail, email, now);
    },
    async succeeded({ email, ip }) {
      await resetRateLimit(await getStore(), byEmailAndIp, pair(email, ip));
    },
  };
}

/** The sign-in throttle on this process's rate-limit store (RATE_LIMIT_STORE). */
export function getSignInThrottle(): SignInThrottle {
  return createSignInThrottle(getRateLimitStore);
}
