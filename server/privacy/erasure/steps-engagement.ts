/**
 * Erasure's engagement steps: the reader's comments by the account's rule (./rules.ts
 * commentFate), everything else they did on the pages (reactions, votes, reports they made, UGC
 * submissions), their notifications and consents, and their newsletter subscriptions and
 * deliveries (clicks go with them). The response cache drops what changed by itself: the
 * database announces the account's "comments" purge key at the commit of every write to comments,
 * reactions and members (server/engagement/comments-cache.ts).
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { commentFate } from "./rules";
import type { ErasureSubject } from "./subject";

/** What a placeholder comment holds: nothing of what was written. */
const PLACEHOLDER_BODY = { ops: [] };

/** The reader's comments: kept, or removed (a comment others answered stays as a placeholder). */
export async function applyCommentsRule(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  if (s.commentsRule === "keep") return;
  const mine = await tx.comment.findMany({
    where: { accountId: s.accountId, authorId: s.memberId },
    select: { id: true, parentCommentId: true },
  });
  if (!mine.length) return;
  const answered = await tx.comment.findMany({
    where: { parentCommentId: { in: mine.map((c) => c.id) }, authorId: { not: s.memberId } },
    select: { parentCommentId: true },
    distinct: ["parentCommentId"],
  });
  const hasReplies = new Set(answered.map((a) => a.parentCommentId));
  const placeholders: number[] = [];
  const deletions: number[] = [];
  for (const c of mine) {
    if (commentFate(s.commentsRule, hasReplies.has(c.id)) === "placeholder") placeholders.push(c.id);
    else deletions.push(c.id);
  }
  if (placeholders.length)
    await tx.comment.updateMany({
      where: { id: { in: placeholders } },
      data: {
        body: PLACEHOLDER_BODY,
        bodyDigest: "erased",
        deletedAt: s.now,
        deletedById: null,
        guestName: null,
        moderationReasons: [],
      },
    });
  // Replies first (a reply's id is greater than its parent's): never a cascade through a kept parent.
  if (deletions.length) await tx.comment.deleteMany({ where: { id: { in: deletions } } });
}

/** Reactions, page reactions, story votes, reports made, the comment claim, notices, bans and UGC. */
export async function removeEngagement(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const of = { memberId: s.memberId };
  await tx.commentReaction.deleteMany({ where: of });
  await tx.pageReaction.deleteMany({ where: of });
  await tx.storyVote.deleteMany({ where: of });
  await tx.commentReport.deleteMany({ where: of });
  await tx.commentClaim.deleteMany({ where: of });
  await tx.memberNotice.deleteMany({ where: of });
  await tx.commentBan.deleteMany({ where: of });
  // Approved submissions are kept with the comments under "keep" (as a deleted reader's); any other goes.
  await tx.ugcSubmission.deleteMany({
    where: {
      accountId: s.accountId,
      memberId: s.memberId,
      ...(s.commentsRule === "keep" ? { status: { not: "APPROVED" } } : {}),
    },
  });
}

/** Notification preferences and notifications, consents. */
export async function removeNotifications(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const of = { memberId: s.memberId };
  await tx.readerNotificationPrefs.deleteMany({ where: of });
  await tx.readerNotification.deleteMany({ where: of });
  await tx.memberConsent.deleteMany({ where: of });
}

/** Newsletter subscriptions, deliveries (and their clicks) and the suppression of the reader's addresses. */
export async function removeNewsletters(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const emails = [...s.needles.emails];
  await tx.newsletterSubscription.deleteMany({ where: { memberId: s.memberId } });
  await tx.newsletterDelivery.deleteMany({
    where: { accountId: s.accountId, OR: [{ memberId: s.memberId }, { email: { in: emails } }] },
  });
  if (emails.length) await tx.emailSuppression.deleteMany({ where: { accountId: s.accountId, email: { in: emails } } });
}
