/**
 * The pace of newsletter sending: at most NEWSLETTER_MAX_PER_SECOND mails handed to the SMTP
 * server per second, counted in one-second windows of a rate-limit store (../rate-limit): Redis or
 * the database when RATE_LIMIT_STORE says so, shared by every instance and every send; the
 * process's memory otherwise (then each instance keeps its own pace).
 *
 * A sender takes a turn before each mail; a turn refused in this window waits for the next one.
 */
import type { RateLimitStore } from "../rate-limit";

export type Throttle = {
  /** Wait until one more mail may go. */
  take(): Promise<void>;
};

const KEY = "newsletter:smtp";
const WINDOW_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A throttle of `perSecond` mails on `store`'s one-second windows. */
export function storeThrottle(store: RateLimitStore, perSecond: number): Throttle {
  return {
    async take() {
      for (;;) {
        const now = new Date();
        const { count, resetAt } = await store.hit(KEY, WINDOW_MS, now);
        if (count <= perSecond) return;
        await sleep(Math.max(1, resetAt.getTime() - Date.now()));
      }
    },
  };
}

/** No pace (tests of other things, and nothing else). */
export const noThrottle: Throttle = { take: async () => {} };
