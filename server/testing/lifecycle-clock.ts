/**
 * The subscription lifecycle on the test clock, as the app's runner would move it: the clock set
 * to `at`, the sweep, then every job due (a few passes, for jobs that queue jobs).
 */
import type { Db } from "../db/client";
import { sweepSubscriptionLifecycle } from "../subscriptions/recurring/lifecycle";
import { now, setClock } from "./clock";
import { runJobsNow, testJobDeps } from "./jobs";

export async function passTime(db: Db, at: string) {
  setClock(new Date(at));
  await sweepSubscriptionLifecycle(db, now());
  await runDueJobs(db);
}

/** Every job due by the test clock, including those the jobs queue as they run. */
export async function runDueJobs(db: Db) {
  for (let pass = 0; pass < 10; pass++) {
    const { claimed } = await runJobsNow(db, testJobDeps({ clock: now }));
    if (claimed === 0) return;
  }
}
