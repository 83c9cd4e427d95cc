/** Every Inngest function, served by app/api/inngest/route.ts: one per job kind, and the sweep. */
import { jobFunctions } from "./functions/run-job";
import { sweepJobs } from "./functions/sweep-jobs";

export { inngest } from "./client";

export const functions = [...jobFunctions, sweepJobs];
