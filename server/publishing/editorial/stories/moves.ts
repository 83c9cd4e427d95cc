/**
 * Moving stories through the workflow (../workflow.ts) and deleting drafts. A move bumps the
 * story's version (a stale one is CONFLICT) and emits its CONTENT webhook event (../events.ts) in
 * the same transaction as the change and its audit entry.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { recordAudit } from "../../../audit/audit-log";
import type { Actor } from "../../../auth/actor";
import type { Db, TransactionClient } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma, StoryStatus } from "../../../generated/prisma/client";
import { cancelJob } from "../../../jobs/queue";
import { parseInput } from "../../../validation";
import { assertAuthorship } from "../authorship";
import { emitStoryEvent } from "../events";
import { lockRows } from "../shared";
import {
  ZTransitionStoryInput,
  type TContentWorkflowEvent,
  type TStoryAction,
  type TTransitionStoryInput,
} from "../stories.schema";
import { canDelete, resolveMove } from "../workflow";
import { staleVersion, type StoryWriteOutcome, type WriteContext } from "./fields";
import { getStory } from "./read";

/** Publishing stamps the times; other moves leave them as they are. */
function timesForMove(
  to: StoryStatus,
  current: { firstPublishedAt: Date | null },
  now: Date,
): Prisma.StoryUpdateManyMutationInput {
  if (to !== "PUBLISHED") return {};
  return { publishedAt: now, lastPublishedAt: now, ...(current.firstPublishedAt ? {} : { firstPublishedAt: now }) };
}

/**
 * Move a story through the workflow (../workflow.ts). An illegal move is UNPROCESSABLE and names the
 * current status; a stale `version` is CONFLICT. Emits the move's event.
 */
export async function transitionStory(
  db: Db,
  args: WriteContext & { input: TTransitionStoryInput },
): Promise<StoryWriteOutcome> {
  const { id, version, action, note } = parseInput(ZTransitionStoryInput, args.input);
  const { actor, now } = args;
  const outcome = await withTransaction(db, (tx) =>
    moveStory(tx, { actor, id, version, action, now, appUrl: args.appUrl, note }),
  );
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), ...outcome };
}

/** The key of a story's scheduled publication in the job list (server/jobs). */
export const scheduledPublicationKey = (storyId: string) => `story.publish:${storyId}`;

/**
 * One workflow move inside the caller's transaction: the status change, its audit entry and its
 * event. `version`: the version the caller saw (a stale one is CONFLICT), or null to move the
 * current version (the scheduler publishing an approved story). Any move ends a scheduled
 * publication: the story has left the state it was scheduled in.
 */
export async function moveStory(
  tx: TransactionClient,
  args: {
    actor: Actor;
    id: string;
    version: number | null;
    action: TStoryAction;
    now: Date;
    appUrl: string;
    /** For the writer, with a move back to draft (../story-return-notes.ts reads it from the audit entry). */
    note?: string;
  },
): Promise<{ event: TContentWorkflowEvent; notified: number }> {
  const { actor, id, action, now, note } = args;
  const accountId = actor.accountId;
  const current = await tx.story.findFirst({
    where: { id, accountId },
    select: { status: true, version: true, firstPublishedAt: true, headline: true, publishAt: true, ownerId: true },
  });
  if (!current) throw new AppError("NOT_FOUND", "Story not found.");
  await assertAuthorship(tx, { actor, gate: action, story: current });
  const version = args.version ?? current.version;
  if (current.version !== version) throw staleVersion();
  const resolved = resolveMove(current.status, action);
  if (!resolved.ok)
    throw new AppError("UNPROCESSABLE", resolved.reason, {
      details: [{ field: "action", issue: `not possible while the story is ${current.status.toLowerCase()}` }],
    });
  const { move } = resolved;
  if (note && move.to !== "DRAFT")
    throw new AppError("UNPROCESSABLE", "A note to the writer goes only with a move back to draft.", {
      details: [{ field: "note", issue: `not possible with "${action}"` }],
    });
  const updated = await tx.story.updateMany({
    where: { id, accountId, version, status: current.status },
    data: {
      status: move.to,
      version: { increment: 1 },
      storyVersionId: randomUUID(),
      updatedAt: now,
      publishAt: null,
      ...timesForMove(move.to, current, now),
    },
  });
  if (updated.count === 0) throw staleVersion();
  if (current.publishAt) await cancelJob(tx, { key: scheduledPublicationKey(id), now });
  await recordAudit(tx, {
    actor,
    action: `story.${action}`,
    targetType: "story",
    targetId: id,
    metadata: {
      headline: current.headline,
      from: current.status,
      to: move.to,
      version: version + 1,
      ...(note ? { note } : {}),
    },
    now,
  });
  const notified = await emitStoryEvent(tx, {
    storyId: id,
    name: move.event,
    actor,
    previousStatus: current.status,
    now,
    appUrl: args.appUrl,
  });
  return { event: move.event, notified };
}

/** Delete a draft for good. Anything else must be moved back to draft first. */
export async function deleteStory(
  db: Db,
  args: { actor: Actor; id: string; version: number; now: Date },
): Promise<void> {
  const { actor, id, version, now } = args;
  const accountId = actor.accountId;
  await withTransaction(db, async (tx) => {
    // Locked first: of two deletes of the same story the second waits, then finds it gone (404);
    // a collection adding it meanwhile either finds it gone or is cascaded (../shared.ts lockRows).
    const locked = await lockRows(tx, "stories", { accountId, ids: [id], mode: "update" });
    const current = locked.has(id)
      ? await tx.story.findFirst({
          where: { id, accountId },
          select: { status: true, version: true, headline: true, slug: true, ownerId: true },
        })
      : null;
    if (!current) throw new AppError("NOT_FOUND", "Story not found.");
    await assertAuthorship(tx, { actor, gate: "delete", story: current });
    if (current.version !== version) throw staleVersion();
    if (!canDelete(current.status)) {
      throw new AppError(
        "UNPROCESSABLE",
        `Only drafts can be deleted; this story is ${current.status.toLowerCase()}.`,
        {
          details: [{ field: "id", issue: `the story is ${current.status.toLowerCase()}` }],
        },
      );
    }
    const deleted = await tx.story.deleteMany({ where: { id, accountId, version, status: "DRAFT" } });
    if (deleted.count === 0) throw staleVersion();
    await tx.story.updateMany({
      where: { accountId, breakingNewsLinkedStoryId: id },
      data: { breakingNewsLinkedStoryId: null },
    });
    await recordAudit(tx, {
      actor,
      action: "story.delete",
      targetType: "story",
      targetId: id,
      metadata: { headline: current.headline, slug: current.slug },
      now,
    });
  });
}
