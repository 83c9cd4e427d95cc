/**
 * The moderators' queue and their actions on comments (docs/engagement.md "The queue",
 * "Actions"). Owners and moderators only; every read and write is scoped to the actor's account
 * (another account's comment is NOT_FOUND).
 *
 * Tabs (a comment may be in several; deleted comments are in none):
 * - pending: unpublished and UNDECIDED (held by moderation, or sent back by an edit);
 * - reported: reported by readers since the last decision (open_reports > 0), or published with a
 *   suspect word (../moderation.ts SUSPECT_WORD_REASON) and not decided yet;
 * - spam: is_spam and UNDECIDED (the scorer's spam, waiting for a moderator);
 * - toxic: toxicity ≥ the account's threshold and UNDECIDED.
 * Decided views: approved, rejected, marked_spam (the moderation state), by decided_at.
 * Filtered and paged by queue-list.ts: a cursor on (created_at, id), or (decided_at, id) in a
 * decided view, newest or oldest first.
 *
 * Actions (decisions.ts decides, this writes): one transaction each, the comment row locked
 * (FOR UPDATE) while its state is read and changed, so two moderators acting at once are served
 * one after the other: the second sees the first's decision and gets a no-op (same decision) or
 * 409 "already decided" (another one, unless `override`). Each change is audited and resets the
 * open reports; a decision that made the comment visible emits comment.published, one that hid
 * it comment.unpublished, delete emits comment.deleted: once, since a no-op writes nothing. An action given the item's
 * `expectedVersion` is refused (409) when the comment changed since it was loaded; the audit entry
 * keeps the state before the decision, which undo.ts restores.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Comment, Member, Page, Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import type { TCommentOp } from "../../comments.schema";
import { emitCommentEvent } from "../../events";
import { enqueueCommentNotifications } from "../../notifications/notify";
import { activeBanOf, activeBanWhere, banView } from "../bans/bans";
import { isNewReader, SUSPECT_WORD_REASON } from "../moderation";
import { requireModerator } from "../moderator";
import { countDecisionTerms } from "../scorer/adaptive-store";
import { moderationSettingsOf } from "../settings";
import { commentVersion, decideAction } from "./decisions";
import { findQueuePage } from "./queue-list";
import {
  QUEUE_VIEWS,
  ZCommentActionInput,
  ZQueueInput,
  type TCommentActionInput,
  type TCommentActionResult,
  type TQueueCounts,
  type TQueueInput,
  type TQueueItem,
  type TQueuePage,
  type TQueueView,
  type TReaderHistory,
} from "./queue.schema";
import { explainReasons, findHighlights } from "./reasons";

type QueueComment = Comment & { page: Page; author: Pick<Member, "id" | "name"> };

export const INCLUDE = { page: true, author: { select: { id: true, name: true } } } as const;

/** What each view holds, for its count (queue-list.ts says the same in SQL for the lists). */
function tabWhere(tab: TQueueView, accountId: number, threshold: number): Prisma.CommentWhereInput {
  const base = { accountId, deletedAt: null };
  switch (tab) {
    case "pending":
      return { ...base, isPublished: false, moderationState: "UNDECIDED" };
    case "reported":
      return {
        ...base,
        OR: [
          { openReports: { gt: 0 } },
          { moderationState: "UNDECIDED", moderationReasons: { has: SUSPECT_WORD_REASON } },
        ],
      };
    case "spam":
      return { ...base, isSpam: true, moderationState: "UNDECIDED" };
    case "toxic":
      return { ...base, toxicity: { gte: threshold }, moderationState: "UNDECIDED" };
    case "approved":
      return { ...base, moderationState: "APPROVED", decidedAt: { not: null } };
    case "rejected":
      return { ...base, moderationState: "REJECTED", decidedAt: { not: null } };
    case "marked_spam":
      return { ...base, moderationState: "SPAM", decidedAt: { not: null } };
    case "published":
      return { ...base, isPublished: true, isSpam: false, hiddenAt: null };
    case "featured":
      return { ...base, featuredAt: { not: null } };
  }
}

// ─── cursor ──────────────────────────────────────────────────────────────────────────────────

function encodeCursor(c: { at: Date; id: number }): string {
  return Buffer.from(JSON.stringify([c.at.toISOString(), c.id])).toString("base64url");
}

function decodeCursor(cursor: string): { at: Date; id: number } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    const date = new Date(String(at));
    if (typeof at === "string" && !Number.isNaN(date.getTime()) && Number.isSafeInteger(id)) {
      return { at: date, id: id as number };
    }
  } catch {
    // below
  }
  throw new AppError("BAD_REQUEST", "The cursor is not valid: start again from the first page.", {
    details: [{ field: "cursor", issue: "is not a cursor this list gave" }],
  });
}

// ─── items ───────────────────────────────────────────────────────────────────────────────────

export const STATE_WIRE = { UNDECIDED: "undecided", APPROVED: "approved", REJECTED: "rejected", SPAM: "spam" } as const;
const REASON_WIRE = { SPAM: "spam", ABUSE: "abuse", OFF_TOPIC: "off_topic", OTHER: "other" } as const;

/**
 * Queue items for comments of one account: reports, the authors' newness and bans, who decided,
 * the reasons in words and the words to highlight, in few queries.
 */
export async function toItems(db: Db, accountId: number, comments: QueueComment[], now: Date): Promise<TQueueItem[]> {
  if (comments.length === 0) return [];
  const ids = comments.map((c) => c.id);
  const authors = [...new Set(comments.map((c) => c.authorId))];
  const deciders = [...new Set(comments.map((c) => c.decidedById).filter((id): id is string => id !== null))];
  const [reportGroups, notes, firsts, published, bans, staff, settings] = await Promise.all([
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
    deciders.length
      ? db.adminUser.findMany({ where: { id: { in: deciders }, accountId }, select: { id: true, name: true } })
      : Promise.resolve([]),
    moderationSettingsOf(db, accountId),
  ]);
  const staffName = new Map(staff.map((s) => [s.id, s.name]));
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
    const ops = (c.body as { ops?: TCommentOp[] }).ops ?? [];
    const deciderName = c.decidedById ? staffName.get(c.decidedById) : undefined;
    return {
      id: c.id,
      ops,
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
      featured: c.featuredAt !== null,
      answered: c.answeredAt !== null,
      qaPage: c.page.qaMode,
      state: STATE_WIRE[c.moderationState],
      reasons: c.moderationReasons,
      explainedReasons: explainReasons(c.moderationReasons, {
        toxicity: c.toxicity,
        threshold: settings.toxicityThreshold,
      }),
      highlights: findHighlights({ ops, reasons: c.moderationReasons, bannedWords: settings.bannedWords }),
      decidedBy: c.decidedById && deciderName !== undefined ? { id: c.decidedById, name: deciderName } : null,
      version: commentVersion(c),
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
  const rows = await findQueuePage(db, {
    accountId,
    view: input.tab,
    order: input.order,
    filters: input.filters ?? {},
    after: input.cursor ? decodeCursor(input.cursor) : null,
    limit: input.limit,
    threshold: toxicityThreshold,
  });
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  const found = await db.comment.findMany({ where: { id: { in: page.map((r) => r.id) } }, include: INCLUDE });
  const byId = new Map(found.map((c) => [c.id, c]));
  const comments = page.map((r) => byId.get(r.id)).filter((c): c is QueueComment => c !== undefined);
  return {
    items: await toItems(db, accountId, comments, args.now),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}

/** How many comments each tab holds. */
export async function moderationQueueCounts(db: Db, args: { actor: StaffActor }): Promise<TQueueCounts> {
  requireModerator(args.actor);
  const accountId = args.actor.accountId;
  const { toxicityThreshold } = await moderationSettingsOf(db, accountId);
  const counts = await Promise.all(
    QUEUE_VIEWS.map(
      async (view) => [view, await db.comment.count({ where: tabWhere(view, accountId, toxicityThreshold) })] as const,
    ),
  );
  return Object.fromEntries(counts) as TQueueCounts;
}

// ─── actions ─────────────────────────────────────────────────────────────────────────────────

export const visible = (c: Pick<Comment, "isPublished" | "isSpam" | "deletedAt">) =>
  c.isPublished && !c.isSpam && c.deletedAt === null;

/**
 * A moderator's change that made a comment visible emits comment.published; one that hid a
 * visible comment (a reject or spam decision, or undoing an approval) emits comment.unpublished.
 * In the change's transaction, so once per change.
 */
export async function announceVisibilityChange(
  tx: Db,
  args: { before: Comment; after: Comment & { page: Page }; moderatorId: string; now: Date },
): Promise<void> {
  const { before, after } = args;
  if (visible(before) === visible(after)) return;
  await emitCommentEvent(tx, {
    name: visible(after) ? "comment.published" : "comment.unpublished",
    comment: after,
    page: after.page,
    occurredAt: args.now,
    extra: { moderator_id: args.moderatorId },
  });
}

/** The comment of the account, locked for the rest of `tx` (404 when the account has no such comment). */
export async function lockComment(tx: Db, accountId: number, commentId: number) {
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM comments WHERE id = ${commentId} AND account_id = ${accountId} FOR UPDATE`;
  if (locked.length === 0) throw new AppError("NOT_FOUND", "Comment not found.");
  return tx.comment.findUniqueOrThrow({ where: { id: commentId }, include: INCLUDE });
}

/** Approve, reject, delete, mark spam or not spam one comment of the actor's account. */
export async function moderateComment(
  db: Db,
  args: { actor: StaffActor; input: TCommentActionInput; now: Date; ip?: string | null },
): Promise<TCommentActionResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZCommentActionInput, args.input);
  const { changed, comment } = await withTransaction(db, async (tx) => {
    const before = await lockComment(tx, actor.accountId, input.commentId);
    if (input.expectedVersion !== undefined && input.expectedVersion !== commentVersion(before)) {
      throw new AppError(
        "CONFLICT",
        `This comment changed since the list was loaded: it is now ${stateInWords(before)}. Reload to see it as it is, then decide again.`,
        { details: [{ field: "expectedVersion", issue: "is not the comment's current version" }] },
      );
    }
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
    // The adaptive layer counts the decision (../scorer/adaptive-store.ts): the comment's terms for its outcome.
    await countDecisionTerms(tx, after);
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
        spam: { from: before.isSpam, to: after.isSpam },
        // The decision this one replaced: undo.ts restores it.
        decidedBefore: {
          byId: before.decidedById,
          at: before.decidedAt?.toISOString() ?? null,
        },
        ...(input.override ? { override: true } : {}),
        ...(input.expectedVersion !== undefined ? { changedFromView: true } : {}),
        ...(before.openReports ? { openReports: before.openReports } : {}),
      },
      ip: args.ip,
      now,
    });
    if (!remove) await announceVisibilityChange(tx, { before, after, moderatorId: actor.id, now });
    // notifications: the held comment's author hears the decision; a reply or mention it published is told
    await enqueueCommentNotifications(tx, { comment: after, before, now });
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

/** A comment's state as a moderator says it ("rejected and unpublished"). */
export function stateInWords(c: Pick<Comment, "moderationState" | "isPublished" | "deletedAt">): string {
  if (c.deletedAt) return "deleted";
  const state = { UNDECIDED: "undecided", APPROVED: "approved", REJECTED: "rejected", SPAM: "marked spam" }[
    c.moderationState
  ];
  return `${state} and ${c.isPublished ? "published" : "unpublished"}`;
}

// ─── a reader's history ──────────────────────────────────────────────────────────────────────

const HISTORY_COMMENTS_MAX = 100;

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
