/**
 * The engagement half of a data export (./collect.ts): what the reader wrote, reacted to,
 * reported and was told in the comments, their uploads and submissions, and their notification
 * settings. Only the reader's own rows: a reply or a reaction of someone else never comes along
 * (the page and the comment they concern are named by id, URL and headline).
 */
import "server-only";

import type { Db } from "../../db/client";
import { commentOpsText } from "../../text/comment-ops";
import { iso } from "./format";

/** A comment's ops as text: strings as written, mentions as @name, images as [image: url]. */
function commentBodyText(body: unknown): string {
  return commentOpsText(body, (url) => `[image: ${url}]`).replace(/\n+$/, "");
}

/** What became of a comment, in one word (the reader's view of the moderation fields). */
function commentStatus(c: {
  deletedAt: Date | null;
  isSpam: boolean;
  hiddenAt: Date | null;
  isPublished: boolean;
  moderationState: string;
}): string {
  if (c.deletedAt) return "deleted";
  if (c.isSpam || c.moderationState === "SPAM") return "spam";
  if (c.moderationState === "REJECTED") return "rejected";
  if (c.hiddenAt) return "hidden";
  return c.isPublished ? "published" : "pending";
}

const pageRef = { select: { url: true, headline: true } } as const;

/** Comments, reactions (to comments and pages), story votes, reports the reader made. */
export async function collectContributions(db: Db, memberId: number) {
  const [comments, reactions, pageReactions, votes, reports] = await Promise.all([
    db.comment.findMany({
      where: { authorId: memberId },
      orderBy: { id: "asc" },
      select: {
        id: true,
        parentCommentId: true,
        replyToId: true,
        body: true,
        createdAt: true,
        editedAt: true,
        deletedAt: true,
        hiddenAt: true,
        isSpam: true,
        isPublished: true,
        moderationState: true,
        moderationReasons: true,
        featuredAt: true,
        reactionCount: true,
        page: pageRef,
      },
    }),
    db.commentReaction.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { commentId: true, reactionId: true, createdAt: true, comment: { select: { page: pageRef } } },
    }),
    db.pageReaction.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { reactionId: true, createdAt: true, page: pageRef },
    }),
    db.storyVote.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: {
        storyId: true,
        magnitude: true,
        createdAt: true,
        updatedAt: true,
        story: { select: { headline: true } },
      },
    }),
    db.commentReport.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { commentId: true, reason: true, note: true, createdAt: true },
    }),
  ]);
  return {
    comments: comments.map((c) => ({
      id: c.id,
      page_url: c.page.url,
      page_title: c.page.headline,
      parent_comment_id: c.parentCommentId,
      reply_to_id: c.replyToId,
      text: commentBodyText(c.body),
      status: commentStatus(c),
      moderation_reasons: c.moderationReasons,
      featured: c.featuredAt !== null,
      reaction_count: c.reactionCount,
      created_at: iso(c.createdAt),
      edited_at: iso(c.editedAt),
      deleted_at: iso(c.deletedAt),
    })),
    comment_reactions: reactions.map((r) => ({
      comment_id: r.commentId,
      page_url: r.comment.page.url,
      reaction: r.reactionId,
      created_at: iso(r.createdAt),
    })),
    page_reactions: pageReactions.map((r) => ({
      page_url: r.page.url,
      page_title: r.page.headline,
      reaction: r.reactionId,
      created_at: iso(r.createdAt),
    })),
    story_votes: votes.map((v) => ({
      story_id: v.storyId,
      story_headline: v.story.headline,
      magnitude: v.magnitude,
      created_at: iso(v.createdAt),
      updated_at: iso(v.updatedAt),
    })),
    comment_reports: reports.map((r) => ({
      comment_id: r.commentId,
      reason: r.reason.toLowerCase(),
      note: r.note,
      created_at: iso(r.createdAt),
    })),
  };
}

/** Moderation about the reader (bans, notices), their claim, uploads, submissions and notifications. */
export async function collectCommunity(db: Db, memberId: number) {
  const [bans, notices, claim, images, ugc, prefs, notifications] = await Promise.all([
    db.commentBan.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { reason: true, createdAt: true, expiresAt: true, liftedAt: true },
    }),
    db.memberNotice.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { kind: true, message: true, createdAt: true, acknowledgedAt: true },
    }),
    db.commentClaim.findUnique({ where: { memberId }, select: { commentId: true, claimedAt: true } }),
    db.imageAsset.findMany({
      where: { uploadedByMemberId: memberId },
      orderBy: { createdAt: "asc" },
      select: { key: true, fileName: true, mimeType: true, bytes: true, alt: true, createdAt: true },
    }),
    db.ugcSubmission.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: {
        id: true,
        topicType: true,
        topicValues: true,
        title: true,
        text: true,
        links: true,
        images: true,
        status: true,
        createdAt: true,
        decidedAt: true,
      },
    }),
    db.readerNotificationPrefs.findUnique({ where: { memberId } }),
    db.readerNotification.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { kind: true, commentId: true, delivery: true, status: true, createdAt: true, doneAt: true },
    }),
  ]);
  return {
    comment_bans: bans.map((b) => ({
      reason: b.reason,
      created_at: iso(b.createdAt),
      expires_at: iso(b.expiresAt),
      lifted_at: iso(b.liftedAt),
    })),
    moderation_notices: notices.map((n) => ({
      kind: n.kind.toLowerCase(),
      message: n.message,
      created_at: iso(n.createdAt),
      acknowledged_at: iso(n.acknowledgedAt),
    })),
    comment_claim: claim ? { comment_id: claim.commentId, claimed_at: iso(claim.claimedAt) } : null,
    uploaded_images: images.map((i) => ({
      key: i.key,
      file_name: i.fileName,
      mime_type: i.mimeType,
      bytes: i.bytes,
      alt: i.alt,
      created_at: iso(i.createdAt),
    })),
    ugc_submissions: ugc.map((u) => ({
      id: u.id,
      topic_type: u.topicType,
      topic_values: u.topicValues,
      title: u.title,
      text: u.text,
      links: u.links,
      images: u.images,
      status: u.status.toLowerCase(),
      created_at: iso(u.createdAt),
      decided_at: iso(u.decidedAt),
    })),
    notification_preferences: prefs
      ? {
          replies: prefs.replies.toLowerCase(),
          mentions: prefs.mentions.toLowerCase(),
          decisions: prefs.decisions.toLowerCase(),
          time_zone: prefs.timeZone,
          updated_at: iso(prefs.updatedAt),
        }
      : null,
    notifications: notifications.map((n) => ({
      kind: n.kind.toLowerCase(),
      comment_id: n.commentId,
      delivery: n.delivery.toLowerCase(),
      status: n.status.toLowerCase(),
      created_at: iso(n.createdAt),
      done_at: iso(n.doneAt),
    })),
  };
}
