/**
 * With Inngest configured, a job queued in a transaction becomes one Inngest event once the
 * transaction has committed (server/jobs/queue.ts calls the notifier set here). The event id is
 * the job's id and due time, so a repeated hand-off starts no second run. A lost hand-off is
 * caught by the sweep (./functions/sweep-jobs.ts).
 */
import { setJobNotifier } from "../server/jobs/queue";
import { log } from "../server/log";
import { inngest } from "./client";
import { jobQueuedEvent } from "./events";

export function handJobsToInngest(): void {
  setJobNotifier(async (jobs) => {
    try {
      await inngest.send(
        jobs.map((job) =>
          jobQueuedEvent(job.name).create({ jobId: job.id }, { id: `${job.id}@${job.runAt.getTime()}` }),
        ),
      );
    } catch (error) {
      log.error("could not hand jobs to Inngest; the sweep will run them", { jobs: jobs.length, error });
    }
  });
}
