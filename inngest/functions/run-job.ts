/**
 * One Inngest function per job kind (server/background/job-list.ts), started by the job's event. Each
 * attempt is a step, and the wait until the job is due again is `step.sleepUntil`, so retries and
 * scheduled jobs survive restarts and deploys. The state lives in the jobs table: a step that runs
 * twice finds the job done or held, and does nothing twice.
 */
import { JOBS } from "../../server/background/job-list";
import { jobDepsFromEnv } from "../../server/background/start";
import { getDb } from "../../server/db";
import type { JobDefinition } from "../../server/jobs/define";
import { runJobById, type JobRunState } from "../../server/jobs/engine";
import { inngest } from "../client";
import { jobQueuedEvent } from "../events";

/** Steps per run: more than the longest retry schedule (8 attempts for subscription webhooks). */
const MAX_STEPS = 24;

export function jobFunction(definition: JobDefinition) {
  return inngest.createFunction(
    {
      id: `job-${definition.name.replace(/\./g, "-")}`,
      triggers: [jobQueuedEvent(definition.name)],
      // Retries live in the jobs table (attempts, backoff); Inngest retries a step that crashed.
      retries: 2,
      concurrency: { limit: definition.concurrency ?? 10 },
    },
    async ({ event, step, runId }) => {
      let state: JobRunState = { state: "missing" };
      for (let i = 1; i <= MAX_STEPS; i++) {
        state = await step.run(`attempt-${i}`, async () =>
          runJobById(await getDb(), {
            jobs: JOBS,
            jobId: event.data.jobId,
            deps: jobDepsFromEnv(),
            workerId: `inngest:${runId}`,
          }),
        );
        // Held by another worker (the sweep, a second event): that worker finishes it.
        if (state.state !== "waiting") return state;
        await step.sleepUntil(`wait-${i}`, new Date(state.until));
      }
      return state;
    },
  );
}

export const jobFunctions = JOBS.all.map(jobFunction);
