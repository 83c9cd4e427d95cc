/**
 * The moderators' queue and their actions on comments (docs/engagement.md "The queue",
 * "Actions"). Owners and moderators only; every read and write is scoped to the actor's account
 * (another account's comment is NOT_FOUND).
 *
 * Tabs (a comment may be in several; deleted comments are in none):
 * - pending: unpublished and UNDECIDED (held by moderation, or sent back by an edit);
 * - reported: reported by readers since the last decision (open_reports > 0);
 * - spam: is_spam and UNDECIDED (the scorer's spam, waiting for a moderator);
 * - toxic: toxicity ≥ the account's threshold and UNDECIDED.
 * Paged by a cursor on (created_at, id), newest or oldest first.
 *
 * Actions (decisions.ts decides, this writes): one transaction each, the comment row locked
 * (FOR UPDATE) while its state is read and changed, so two moderators acting at once are served
 * one after the other: the second sees the first's decision and gets a no-op (same decision) or
 * 409 "already decided" (another one, unless `override`). Each change is audited and resets the
 * open reports; approve emits comment.published when it made the comment visible, delete
 * emits comment.deleted: once, since a no-op writes nothing.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Comment, Member, Page, Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { commentsWritten } from "../comments-cache";
import type { TCommentOp } from "../comments.schema";
import { emitCommentEvent } from "../events";
import { activeBanOf, activeBanWhere, banView } from "./bans";
import { decideAction } from "./decisions";
import { isNewReader } from "./moderation";
import { requireModerator } from "./moderator";
import {
  ZCommentActionInput,
  ZQueueInput,
  type TCommentActionInput,
  type TCommentActionResult,
  type TQueueCounts,
  type TQueueInput,
  type TQueueItem,
  type TQueuePage,
  type TQueueTab,
  type TReaderHistory,
} from "./queue.schema";
import { moderationSettingsOf } from "./settings";

type QueueComment = Comment & { page: Page; author: Pick<Member, "id" | "name"> };

const INCLUDE = { page: true, author: { select: { id: true, name: true } } } as const;

function tabWhere(tab: TQueueTab, accountId: number, threshold: number): Prisma.CommentWhereInput {
  const base = { accountId, deletedAt: null };
  switch (tab) {
    case "pending":
      return { ...base, isPublished: false, moderationState: "UNDECIDED" };
    case "reported":
      return { ...base, openReports: { gt: 0 } };
    case "spam":
      return { ...base, isSpam: true, moderationState: "UNDECIDED" };
    case "toxic":
      return { ...base, toxicity: { gte: threshold }, moderationState: "UNDECIDED" };
  }
}

// ─── cursor ──────────────────────────────────────────────────────────────────────────────────

function encodeCursor(c: { createdAt: Date; id: number }): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: number } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    const createdAt = new Date(String(at));
    if (typeof at === "string" && !Number.isNaN(createdAt.getTime()) && Number.isSafeInteger(id)) {
      return { createdAt, id: id as number };
    }
  } catch {
    // below
  }
  throw new AppError("BAD_REQUEST", "The cursor is not valid: start again from the first page.", {
    details: [{ field: "cursor", issue: "is not a cursor this list gave" }],
  });
}

// ─── items ───────────────────────────────────────────────────────────────────────────────────

const STATE_WIRE = { UNDECIDED: "undecided", APPROVED: "approved", REJECTED: "rejected", SPAM: "spam" } as const;
const REASON_WIRE = { SPAM: "spam", ABUSE: "abuse", OFF_TOPIC: "off_topic", OTHER: "other" } as const;

/** Queue items for comments of one account: reports, the authors' newness and bans, in few queries. */
async function toItems(db: Db, accountId: number, comments: QueueComment[], now: Date): Promise<TQueueItem[]> {
  if (comments.length === 0) return [];
  const ids = comments.map((c) => c.id);
  const authors = [...new Set(comments.map((c) => c.authorId))];
  const [reportGroups, notes, firsts, published, bans] = await Promise.all([
    db.commentReport.groupBy({
      by: ["commentId", "reason"],
      where: { commentId: { in: ids } },
      _count: { _all: true },
    }),
    db.commentReport.findMany({
      where: { commentId: { in: ids }, note: { not: null } },
      orderBy: { createdAt: "desc" },
      select: { commentId: true, note: true },
      take: 200,
    }),
    db.comment.groupBy({
      by: ["authorId"],
      where: { accountId, authorId: { in: authors } },
      _min: { createdAt: true },
    }),
    db.comment.groupBy({
      by: ["authorId"],
      where: { accountId, authorId: { in: authors }, isPublished: true, isSpam: false, deletedAt: null },
      _count: { _all: true },
    }),
    db.commentBan.findMany({ where: { accountId, memberId: { in: authors }, ...activeBanWhere(now) } }),
  ]);
  const firstAt = new Map(firsts.map((g) => [g.authorId, g._min.createdAt]));
  const publishedCount = new Map(published.map((g) => [g.authorId, g._count._all]));
  const bannedUntil = new Map<number, Date | "forever">();
  for (const ban of bans) {
    const prev = bannedUntil.get(ban.memberId);
    if (ban.expiresAt === null || prev === "forever") bannedUntil.set(ban.memberId, "forever");
    else if (!prev || ban.expiresAt > prev) bannedUntil.set(ban.memberId, ban.expiresAt);
  }
  return comments.map((c) => {
    const groups = reportGroups.filter((g) => g.commentId === c.id);
    return {
      id: c.id,
      ops: (c.body as { ops?: TCommentOp[] }).ops ?? [],
      page: { id: c.page.id, url: c.page.url, headline: c.page.headline },
      parentCommentId: c.parentCommentId,
      author: {
        memberId: c.author.id,
        name: c.author.name,
        isNew: isNewReader(
          { firstCommentAt: firstAt.get(c.authorId) ?? null, publishedComments: publishedCount.get(c.authorId) ?? 0 },
          now,
        ),
        bannedUntil: bannedUntil.get(c.authorId) ?? null,
      },
      confidential: c.confidential,
      toxicity: c.toxicity,
      isSpam: c.isSpam,
      isPublished: c.isPublished,
      hidden: c.hiddenAt !== null,
      deleted: c.deletedAt !== null,
      state: STATE_WIRE[c.moderationState],
      reasons: c.moderationReasons,
      reportCount: groups.reduce((sum, g) => sum + g._count._all, 0),
      openReports: c.openReports,
      reportReasons: groups
        .map((g) => ({ reason: REASON_WIRE[g.reason], count: g._count._all }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
      reportNotes: notes
        .filter((n) => n.commentId === c.id)
        .slice(0, 5)
        .map((n) => n.note!),
      createdAt: c.createdAt,
      editedAt: c.editedAt,
      decidedAt: c.decidedAt,
    };
  });
}

// ─── the queue ───────────────────────────────────────────────────────────────────────────────

/** One page of a tab of the queue. */
export async function listModerationQueue(
  db: Db,
  args: { actor: StaffActor; input: TQueueInput; now: Date },
): Promise<TQueuePage> {
  requireModerator(args.actor);
  const input = parseInput(ZQueueInput, args.input);
  const accountId = args.actor.accountId;
  const { toxicityThreshold } = await moderationSettingsOf(db, accountId);
  const dir = input.order === "newest" ? "desc" : "asc";
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const cmp = input.order === "newest" ? "lt" : "gt";
  const where: Prisma.CommentWhereInput = {
    ...tabWhere(input.tab, accountId, toxicityThreshold),
    ...(after
      ? {
          AND: [
            {
              OR: [{ createdAt: { [cmp]: after.createdAt } }, { createdAt: after.createdAt, id: { [cmp]: after.id } }],
            },
          ],
        }
      : {}),
  };
  const rows = await db.comment.findMany({
    where,
    orderBy: [{ createdAt: dir }, { id: dir }],
    take: input.limit + 1,
    include: INCLUDE,
  });
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: await toItems(db, accountId, page, args.now),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}

/** How many comments each tab holds. */
export async function moderationQueueCounts(db: Db, args: { actor: StaffActor }): Promise<TQueueCounts> {
  requireModerator(args.actor);
  const accountId = args.actor.accountId;
  const { toxicityThreshold } = await moderationSettingsOf(db, accountId);
  const [pending, reported, spam, toxic] = await Promise.all(
    (["pending", "reported", "spam", "toxic"] as const).map((tab) =>
      db.comment.count({ where: tabWhere(tab, accountId, toxicityThreshold) }),
    ),
  );
  return { pending: pending!, reported: reported!, spam: spam!, toxic: toxic! };
}

// ─── actions ─────────────────────────────────────────────────────────────────────────────────

const visible = (c: Pick<Comment, "isPublished" | "isSpam" | "deletedAt">) =>
  c.isPublished && !c.isSpam && c.deletedAt === null;

/** Approve, reject, delete, mark spam or not spam one comment of the actor's account. */
export async function moderateComment(
  db: Db,
  args: { actor: StaffActor; input: TCommentActionInput; now: Date; ip?: string | null },
): Promise<TCommentActionResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZCommentActionInput, args.input);
  const { changed, comment } = await withTransaction(db, async (tx) => {
    const locked = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM comments WHERE id = ${input.commentId} AND account_id = ${actor.accountId} FOR UPDATE`;
    if (locked.length === 0) throw new AppError("NOT_FOUND", "Comment not found.");
    const before = await tx.comment.findUniqueOrThrow({ where: { id: input.commentId }, include: INCLUDE });
    const outcome = decideAction(
      {
        moderationState: before.moderationState,
        isPublished: before.isPublished,
        isSpam: before.isSpam,
        deleted: before.deletedAt !== null,
      },
      input.action,
      input.override,
    );
    if (outcome.kind === "conflict") throw new AppError("CONFLICT", outcome.message);
    if (outcome.kind === "noop") return { changed: false, comment: before };
    const { delete: remove, ...flags } = outcome.data;
    const after = await tx.comment.update({
      where: { id: before.id },
      data: {
        ...flags,
        ...(remove ? { deletedAt: now, deletedById: actor.id } : {}),
        decidedById: actor.id,
        decidedAt: now,
        openReports: 0,
      },
      include: INCLUDE,
    });
    commentsWritten(tx, actor.accountId);
    await recordAudit(tx, {
      actor,
      action: `comment.${input.action}`,
      targetType: "comment",
      targetId: before.id,
      metadata: {
        pageId: before.pageId,
        authorId: before.authorId,
        from: STATE_WIRE[before.moderationState],
        to: STATE_WIRE[after.moderationState],
        published: { from: before.isPublished, to: after.isPublished },
        ...(input.override ? { override: true } : {}),
        ...(before.openReports ? { openReports: before.openReports } : {}),
      },
      ip: args.ip,
      now,
    });
    if (input.action === "approve" && !visible(before) && visible(after)) {
      await emitCommentEvent(tx, {
        name: "comment.published",
        comment: after,
        page: after.page,
        occurredAt: now,
        extra: { moderator_id: actor.id },
      });
    }
    if (remove) {
      await emitCommentEvent(tx, {
        name: "comment.deleted",
        comment: after,
        page: after.page,
        occurredAt: now,
        extra: { moderator_id: actor.id },
      });
    }
    return { changed: true, comment: after };
  });
  const [item] = await toItems(db, actor.accountId, [comment], now);
  return { changed, comment: item! };
}

// ─── a reader's history ──────────────────────────────────────────────────────────────────────

export const HISTORY_COMMENTS_MAX = 100;

/** A reader's comments (newest first, at most HISTORY_COMMENTS_MAX) with their states, the reports against them and their bans. */
export async function readerHistory(
  db: Db,
  args: { actor: StaffActor; memberId: number; now: Date },
): Promise<TReaderHistory> {
  const { actor, now } = args;
  requireModerator(actor);
  const member = await db.member.findFirst({
    where: { id: args.memberId, accountId: actor.accountId },
    select: { id: true, name: true },
  });
  if (!member) throw new AppError("NOT_FOUND", "Reader not found.");
  const [comments, reports, bans, first, published, active] = await Promise.all([
    db.comment.findMany({
      where: { accountId: actor.accountId, authorId: member.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: HISTORY_COMMENTS_MAX,
      include: INCLUDE,
    }),
    db.commentReport.findMany({
      where: { accountId: actor.accountId, comment: { authorId: member.id } },
      orderBy: { createdAt: "desc" },
      take: HISTORY_COMMENTS_MAX,
    }),
    db.commentBan.findMany({
      where: { accountId: actor.accountId, memberId: member.id },
      orderBy: { createdAt: "desc" },
    }),
    db.comment.findFirst({
      where: { accountId: actor.accountId, authorId: member.id },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    }),
    db.comment.count({
      where: { accountId: actor.accountId, authorId: member.id, isPublished: true, isSpam: false, deletedAt: null },
    }),
    activeBanOf(db, { accountId: actor.accountId, memberId: member.id, now }),
  ]);
  const staffIds = [...new Set(bans.flatMap((b) => [b.createdById, b.liftedById]).filter((id): id is string => !!id))];
  const staff = staffIds.length
    ? await db.adminUser.findMany({
        where: { id: { in: staffIds }, accountId: actor.accountId },
        select: { id: true, name: true },
      })
    : [];
  const names = new Map(staff.map((s) => [s.id, s.name]));
  const history = { firstCommentAt: first?.createdAt ?? null, publishedComments: published };
  return {
    reader: { memberId: member.id, name: member.name, isNew: isNewReader(history, now), ...history },
    comments: await toItems(db, actor.accountId, comments, now),
    reportsAgainst: reports.map((r) => ({
      commentId: r.commentId,
      reason: REASON_WIRE[r.reason],
      note: r.note,
      createdAt: r.createdAt,
    })),
    bans: bans.map((b) => banView(b, now, names)),
    activeBan: active ? banView(active, now, names) : null,
  };
}
