/**
 * Moderators' conversation tools (docs/engagement.md "Conversation tools"): feature (pin) a
 * comment, so the widget shows it first in a "Featured" strip, and mark a question of a Q&A page
 * answered, so readers see it. Owners and moderators of the comment's account only (another
 * account's comment is 404).
 *
 * Each is one transaction with the comment row locked: two moderators at once are served one
 * after the other, and setting what is already set writes nothing (no audit, no event). A change
 * is audited ("comment.feature", "comment.unfeature", "comment.mark_answered",
 * "comment.unmark_answered"); featuring emits comment.featured / comment.unfeatured. The comment
 * lists are purged by the database's notice on the comments row (comments-cache.ts).
 *
 * Only a top-level comment is featured or answered (422 for a reply), and only a visible one is
 * featured (422: held, spam, hidden or deleted); unfeaturing always works.
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Comment } from "../generated/prisma/client";
import { parseInput } from "../validation";
import {
  ZFeatureCommentInput,
  ZMarkAnsweredInput,
  type TCommentFlagResult,
  type TFeatureCommentInput,
  type TMarkAnsweredInput,
} from "./comment-features.schema";
import { emitCommentEvent } from "./events";
import { requireModerator } from "./moderation/moderator";

async function lockTopLevel(tx: Db, accountId: number, commentId: number) {
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM comments WHERE id = ${commentId} AND account_id = ${accountId} FOR UPDATE`;
  const comment = locked.length
    ? await tx.comment.findUnique({ where: { id: commentId }, include: { page: true } })
    : null;
  if (!comment || comment.deletedAt) throw new AppError("NOT_FOUND", "Comment not found.");
  if (comment.parentCommentId !== null) {
    throw new AppError("UNPROCESSABLE", "Only a top-level comment can be featured or answered, not a reply.", {
      details: [{ field: "commentId", issue: "is a reply" }],
    });
  }
  return comment;
}

const resultOf = (c: Comment, changed: boolean): TCommentFlagResult => ({
  changed,
  commentId: c.id,
  featured: c.featuredAt !== null,
  answered: c.answeredAt !== null,
});

/** Feature or unfeature a top-level comment. */
export async function setCommentFeatured(
  db: Db,
  args: { actor: StaffActor; input: TFeatureCommentInput; now: Date; ip?: string | null },
): Promise<TCommentFlagResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZFeatureCommentInput, args.input);
  return withTransaction(db, async (tx) => {
    const before = await lockTopLevel(tx, actor.accountId, input.commentId);
    if ((before.featuredAt !== null) === input.featured) return resultOf(before, false);
    if (input.featured && (!before.isPublished || before.isSpam || before.hiddenAt)) {
      throw new AppError("UNPROCESSABLE", "Only a visible comment can be featured: publish it first.", {
        details: [{ field: "commentId", issue: "is not visible to readers" }],
      });
    }
    const after = await tx.comment.update({
      where: { id: before.id },
      data: input.featured ? { featuredAt: now, featuredById: actor.id } : { featuredAt: null, featuredById: null },
    });
    await recordAudit(tx, {
      actor,
      action: input.featured ? "comment.feature" : "comment.unfeature",
      targetType: "comment",
      targetId: before.id,
      metadata: { pageId: before.pageId, authorId: before.authorId },
      ip: args.ip,
      now,
    });
    await emitCommentEvent(tx, {
      name: input.featured ? "comment.featured" : "comment.unfeatured",
      comment: after,
      page: before.page,
      occurredAt: now,
      extra: { moderator_id: actor.id },
    });
    return resultOf(after, true);
  });
}

/** Mark a question answered (readers of a Q&A page see it), or take the mark back. */
export async function setQuestionAnswered(
  db: Db,
  args: { actor: StaffActor; input: TMarkAnsweredInput; now: Date; ip?: string | null },
): Promise<TCommentFlagResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZMarkAnsweredInput, args.input);
  return withTransaction(db, async (tx) => {
    const before = await lockTopLevel(tx, actor.accountId, input.commentId);
    if ((before.answeredAt !== null) === input.answered) return resultOf(before, false);
    const after = await tx.comment.update({
      where: { id: before.id },
      data: input.answered ? { answeredAt: now, answeredById: actor.id } : { answeredAt: null, answeredById: null },
    });
    await recordAudit(tx, {
      actor,
      action: input.answered ? "comment.mark_answered" : "comment.unmark_answered",
      targetType: "comment",
      targetId: before.id,
      metadata: { pageId: before.pageId, authorId: before.authorId, qaPage: before.page.qaMode },
      ip: args.ip,
      now,
    });
    return resultOf(after, true);
  });
}
