/**
 * Safety net, every minute: keep recurring jobs scheduled, and run jobs overdue by more than a
 * minute that nobody holds (a hand-off that never reached Inngest, a run that died). The lease
 * in the jobs table keeps it from racing the per-job functions.
 */
import { JOBS } from "../../server/background/job-list";
import { jobDepsFromEnv } from "../../server/background/start";
import { getDb } from "../../server/db";
import { ensureRecurringJobs, runDueJobs } from "../../server/jobs/engine";
import { inngest } from "../client";

export const sweepJobs = inngest.createFunction(
  { id: "sweep-jobs", triggers: [{ cron: "* * * * *" }], concurrency: { limit: 1 } },
  async ({ step, runId }) => {
    await step.run("ensure-recurring", async () => ensureRecurringJobs(await getDb(), JOBS, new Date()));
    return step.run("run-overdue", async () =>
      runDueJobs(await getDb(), {
        jobs: JOBS,
        deps: jobDepsFromEnv(),
        workerId: `inngest-sweep:${runId}`,
        overdueMs: 60_000,
        maxBatches: 10,
      }),
    );
  },
);
