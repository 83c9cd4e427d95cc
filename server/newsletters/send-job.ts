/**
 * "newsletter.send": one job per send (key `newsletter.send:<id>`), enqueued with the send. Each run
 * works for up to SLICE_MS (./send-runner.ts `runSendSlice`) and asks to run again at once while
 * deliveries are left, or when the next retry is due; the send's rows, not the job, hold the
 * progress, so a run on another instance after a crash takes up where the dead one stopped (its
 * claims lapse after CLAIM_LEASE_MS, the job's lease after LEASE_MS).
 *
 * A long job (JobDefinition.long): the local runner gives it the lane of long jobs, so mail and
 * webhooks never wait behind a send of 100,000 mails.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../env.js";
import { defineJob, type Performed } from "../jobs/define";
import { getRateLimitStore } from "../rate-limit/store";
import { runSendSlice } from "./send-runner";
import { storeThrottle, type Throttle } from "./throttle";

const SLICE_MS = 40_000;

const globalForThrottle = globalThis as unknown as { mastheadNewsletterThrottle?: Throttle };

/** The process's throttle: NEWSLETTER_MAX_PER_SECOND on the rate-limit store (./throttle.ts). */
async function throttle(): Promise<Throttle> {
  if (globalForThrottle.mastheadNewsletterThrottle) return globalForThrottle.mastheadNewsletterThrottle;
  const throttle = storeThrottle(await getRateLimitStore(), getEnv().NEWSLETTER_MAX_PER_SECOND);
  globalForThrottle.mastheadNewsletterThrottle = throttle;
  return throttle;
}

export const newsletterSendJob = defineJob<{ sendId: number }>({
  name: "newsletter.send",
  kind: "external",
  payload: z.object({ sendId: z.number().int().positive() }),
  long: true,
  leaseMs: 5 * 60_000,
  // Every run counts as an attempt (a send of 100,000 mails is a few hundred runs): a run that
  // throws (the database away for a moment) is tried again in 30 s, for days, never failed for good.
  maxAttempts: 100_000,
  backoffMs: () => 30_000,
  concurrency: 2,
  // The sends a worker holds run side by side (sharing the throttle), each for one slice, so all of
  // them finish well within the job's lease.
  async perform(db, jobs, ctx) {
    const pace = await throttle();
    return Promise.all(
      jobs.map(async (job): Promise<Performed<{ sendId: number }, never>> => {
        const result = await runSendSlice(db, {
          sendId: job.payload.sendId,
          clock: ctx.clock,
          mail: ctx.mail,
          appUrl: ctx.appUrl,
          throttle: pace,
          budgetMs: SLICE_MS,
        });
        return { job, result: result.state === "continue" ? { status: "retry", at: result.at } : { status: "done" } };
      }),
    );
  },
  async record() {
    // The deliveries and the send hold what happened (written by the slice as it went).
  },
});
