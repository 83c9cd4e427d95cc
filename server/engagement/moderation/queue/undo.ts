/**
 * Undo: a moderator takes back their own last decision on a comment, right after making it (the
 * toast's Undo button, the `z` key). docs/engagement.md "Changing a decision".
 *
 * The decision's audit entry (queue.ts moderateComment) keeps the state before it: moderation
 * state, publication, spam, who had decided and when, and the open reports. Undo restores exactly
 * that, in one transaction with the row locked, when:
 * - the comment is as that decision left it (`version`, the one the action answered; anything
 *   since, another moderator's decision, an edit, is 409);
 * - the comment's latest decision entry is the actor's own and is not a delete (deleting is final)
 *   or an undo (undo once).
 * It is audited as `comment.undo` (from, to, the entry it undoes) and emits comment.published when
 * it makes the comment visible again, comment.unpublished when it hides it (queue.ts
 * announceVisibilityChange), as a decision would.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import { actorUserId, type StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import { parseInput } from "../../../validation";
import { requireModerator } from "../moderator";
import { countDecisionTerms } from "../scorer/adaptive-store";
import { commentVersion, stateBefore } from "./decisions";
import { announceVisibilityChange, INCLUDE, lockComment, STATE_WIRE, stateInWords, toItems } from "./queue";
import { ZUndoDecisionInput, type TCommentActionResult, type TUndoDecisionInput } from "./queue.schema";

/** Audit actions that decide on a comment: the latest of them is the one undo takes back. */
const DECISION_ACTIONS = [
  "comment.approve",
  "comment.reject",
  "comment.spam",
  "comment.not_spam",
  "comment.delete",
  "comment.undo",
];

export async function undoDecision(
  db: Db,
  args: { actor: StaffActor; input: TUndoDecisionInput; now: Date; ip?: string | null },
): Promise<TCommentActionResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZUndoDecisionInput, args.input);
  const comment = await withTransaction(db, async (tx) => {
    const before = await lockComment(tx, actor.accountId, input.commentId);
    if (commentVersion(before) !== input.version) {
      throw new AppError(
        "CONFLICT",
        `Cannot undo: this comment changed since your decision (it is now ${stateInWords(before)}). Reload to see it as it is.`,
        { details: [{ field: "version", issue: "is not the comment's current version" }] },
      );
    }
    if (before.deletedAt) throw new AppError("CONFLICT", "This comment was deleted: deleting is final.");
    const entry = await tx.auditLog.findFirst({
      where: {
        accountId: actor.accountId,
        targetType: "comment",
        targetId: String(before.id),
        action: { in: DECISION_ACTIONS },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const restore = entry ? stateBefore(entry.metadata) : null;
    if (
      !entry ||
      entry.action === "comment.undo" ||
      entry.action === "comment.delete" ||
      entry.actorId !== actorUserId(actor) ||
      !restore
    ) {
      throw new AppError("CONFLICT", "There is no decision of yours on this comment to undo.");
    }
    const after = await tx.comment.update({
      where: { id: before.id },
      data: restore,
      include: INCLUDE,
    });
    // The adaptive layer counts the restored decision (../scorer/adaptive-store.ts; undecided: the trigger took it away).
    await countDecisionTerms(tx, after);
    await recordAudit(tx, {
      actor,
      action: "comment.undo",
      targetType: "comment",
      targetId: before.id,
      metadata: {
        pageId: before.pageId,
        authorId: before.authorId,
        undoes: entry.action,
        undoesEntryId: entry.id,
        from: STATE_WIRE[before.moderationState],
        to: STATE_WIRE[after.moderationState],
        published: { from: before.isPublished, to: after.isPublished },
        spam: { from: before.isSpam, to: after.isSpam },
      },
      ip: args.ip,
      now,
    });
    await announceVisibilityChange(tx, { before, after, moderatorId: actor.id, now });
    return after;
  });
  const [item] = await toItems(db, actor.accountId, [comment], now);
  return { changed: true, comment: item! };
}
