/**
 * Scheduled publishing. An editor schedules an APPROVED story for a time; a "story.publish" job
 * (server/jobs) is queued for that time in the same transaction, keyed by the story, so the
 * schedule has exactly one job and rescheduling replaces it. When it is due, the job publishes the
 * story as the Publish button would (event, purge keys, audit), acting as the system
 * ("Masthead (scheduler)"), in the transaction that completes the job: killed at any point, it
 * publishes the story exactly once.
 *
 * The schedule ends when the story is published, cancelled, or moved out of APPROVED by any move
 * (moveStory clears it and cancels the job). A job that finds its story changed since (another
 * time, another status) does nothing.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { z } from "zod";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { defineJob } from "../../jobs/define";
import { cancelJob, enqueueJob } from "../../jobs/queue";
import { parseInput } from "../../validation";
import { assertAuthorship } from "./authorship";
import {
  ZScheduleStoryInput,
  ZUnscheduleStoryInput,
  type TScheduleStoryInput,
  type TUnscheduleStoryInput,
} from "./stories.schema";
import { type StoryWriteOutcome, type WriteContext } from "./stories/fields";
import { moveStory, scheduledPublicationKey } from "./stories/moves";
import { getStory } from "./stories/read";

/** How soon and how far ahead a publication can be scheduled. */
const SCHEDULE_MIN_AHEAD_MS = 60_000;
const SCHEDULE_MAX_AHEAD_MS = 366 * 86_400_000;

const stale = () =>
  new AppError("CONFLICT", "Someone else saved this story after you opened it. Reload it, then schedule again.", {
    details: [{ field: "version", issue: "is not the story's current version" }],
  });

/** "story.publish": publish an approved story at its scheduled time. */
export const publishScheduledStoryJob = defineJob<{ storyId: string; publishAt: string }>({
  name: "story.publish",
  kind: "transactional",
  payload: z.object({ storyId: z.uuid(), publishAt: z.iso.datetime() }),
  // Publishing takes milliseconds; a worker that died mid-run is replaced after this.
  leaseMs: 15_000,
  maxAttempts: 10,
  concurrency: 5,
  async run(tx, job, ctx) {
    const story = await tx.story.findUnique({
      where: { id: job.payload.storyId },
      select: { accountId: true, status: true, publishAt: true },
    });
    // Changed since it was scheduled (rescheduled, cancelled, moved, deleted): nothing to do.
    if (!story || story.status !== "APPROVED" || story.publishAt?.toISOString() !== job.payload.publishAt) return;
    const publishAt = new Date(job.payload.publishAt);
    if (ctx.clock() < publishAt) return { status: "retry", at: publishAt };
    await moveStory(tx, {
      actor: systemActor(story.accountId, "scheduler"),
      id: job.payload.storyId,
      version: null,
      action: "publish",
      now: ctx.clock(),
      appUrl: ctx.appUrl,
    });
  },
});

/** Schedule (or reschedule) an approved story's publication; the story's version moves on. */
export async function scheduleStoryPublication(
  db: Db,
  args: WriteContext & { input: TScheduleStoryInput },
): Promise<StoryWriteOutcome> {
  const { id, version, publishAt } = parseInput(ZScheduleStoryInput, args.input);
  const { actor, now } = args;
  const ahead = publishAt.getTime() - now.getTime();
  if (ahead < SCHEDULE_MIN_AHEAD_MS || ahead > SCHEDULE_MAX_AHEAD_MS) {
    throw new AppError("UNPROCESSABLE", "Choose a time at least a minute from now and within a year.", {
      details: [{ field: "publishAt", issue: "must be between a minute and a year from now" }],
    });
  }
  await withTransaction(db, async (tx) => {
    const story = await tx.story.findFirst({
      where: { id, accountId: actor.accountId },
      select: { status: true, version: true, headline: true, ownerId: true },
    });
    if (!story) throw new AppError("NOT_FOUND", "Story not found.");
    await assertAuthorship(tx, { actor, gate: "schedule", story });
    if (story.status !== "APPROVED") {
      throw new AppError("UNPROCESSABLE", "Only an approved story can be scheduled: approve it first.", {
        details: [{ field: "id", issue: `the story is ${story.status.toLowerCase()}` }],
      });
    }
    const { count } = await tx.story.updateMany({
      where: { id, accountId: actor.accountId, version },
      data: { publishAt, version: { increment: 1 }, storyVersionId: randomUUID(), updatedAt: now },
    });
    if (count === 0) throw stale();
    await enqueueJob(
      tx,
      publishScheduledStoryJob,
      { storyId: id, publishAt: publishAt.toISOString() },
      { key: scheduledPublicationKey(id), onConflict: "replace", runAt: publishAt, accountId: actor.accountId, now },
    );
    await recordAudit(tx, {
      actor,
      action: "story.schedule",
      targetType: "story",
      targetId: id,
      metadata: { headline: story.headline, publishAt: publishAt.toISOString(), version: version + 1 },
      now,
    });
  });
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), event: null, notified: 0 };
}

/** Call off a scheduled publication: the story stays approved. */
export async function cancelStoryPublication(
  db: Db,
  args: WriteContext & { input: TUnscheduleStoryInput },
): Promise<StoryWriteOutcome> {
  const { id, version } = parseInput(ZUnscheduleStoryInput, args.input);
  const { actor, now } = args;
  await withTransaction(db, async (tx) => {
    const story = await tx.story.findFirst({
      where: { id, accountId: actor.accountId },
      select: { publishAt: true, headline: true, status: true, ownerId: true },
    });
    if (!story) throw new AppError("NOT_FOUND", "Story not found.");
    await assertAuthorship(tx, { actor, gate: "unschedule", story });
    if (!story.publishAt) {
      throw new AppError("UNPROCESSABLE", "This story is not scheduled.", {
        details: [{ field: "id", issue: "has no scheduled publication" }],
      });
    }
    const { count } = await tx.story.updateMany({
      where: { id, accountId: actor.accountId, version },
      data: { publishAt: null, version: { increment: 1 }, storyVersionId: randomUUID(), updatedAt: now },
    });
    if (count === 0) throw stale();
    await cancelJob(tx, { key: scheduledPublicationKey(id), now });
    await recordAudit(tx, {
      actor,
      action: "story.unschedule",
      targetType: "story",
      targetId: id,
      metadata: { headline: story.headline, publishAt: story.publishAt.toISOString(), version: version + 1 },
      now,
    });
  });
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), event: null, notified: 0 };
}
