/**
 * Every event Masthead sends to Inngest, declared once: used as a trigger and with `.create()`.
 * One per job kind of the job list (server/background/job-list.ts): "a job of this kind was queued".
 */
import { eventType } from "inngest";
import { z } from "zod";

import { JOBS } from "../server/background/job-list";

const ZJobQueued = z.object({ jobId: z.uuid() });

/** The event that starts a job's run, by job name: masthead/job.<name> (e.g. masthead/job.webhook.deliver). */
const jobQueued = new Map(
  JOBS.all.map((definition) => [definition.name, eventType(`masthead/job.${definition.name}`, { schema: ZJobQueued })]),
);

export function jobQueuedEvent(name: string) {
  const event = jobQueued.get(name);
  if (!event) throw new Error(`No Inngest event for job ${name}`);
  return event;
}
