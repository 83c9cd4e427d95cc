/**
 * The note to the writer that an editor leaves when sending a story back to draft (reject, or
 * back-to-draft from approved or retracted). It is kept with the move's audit entry
 * (./stories/moves.ts), the record of who moved the story when; the story shows it while it is a
 * draft and its latest move is that one. Submitting again (any later move) ends it.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";
import { STORY_ACTIONS, ZReturnNoteInput, type TReturnNote } from "./stories.schema";

const MOVE_ACTIONS = STORY_ACTIONS.map((action) => `story.${action}`);

/** The note of the story's latest move, if that move sent it back to draft with one and it still is a draft. */
export async function getReturnNote(db: Db, args: { actor: Actor; storyId: string }): Promise<TReturnNote | null> {
  const { storyId } = parseInput(ZReturnNoteInput, { storyId: args.storyId });
  const accountId = args.actor.accountId;
  const story = await db.story.findFirst({ where: { id: storyId, accountId }, select: { status: true } });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
  if (story.status !== "DRAFT") return null;
  const latest = await db.auditLog.findFirst({
    where: { accountId, targetType: "story", targetId: storyId, action: { in: MOVE_ACTIONS } },
    orderBy: { createdAt: "desc" },
    select: { action: true, metadata: true, createdAt: true, actor: { select: { name: true } } },
  });
  const action = latest?.action.slice("story.".length);
  const note = (latest?.metadata as { note?: unknown } | undefined)?.note;
  if (!latest || (action !== "reject" && action !== "back-to-draft") || typeof note !== "string" || !note) return null;
  return { note, by: latest.actor?.name ?? null, at: latest.createdAt, action };
}
