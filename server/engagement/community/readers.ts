/**
 * The Community page's reads (docs/engagement.md "Community"): any reader of the actor's account,
 * found by the members' one lookup (server/members/member-lookup.ts) and filtered by standing and
 * pending comments, and a reader's card. Owners and moderators only; another account's reader is
 * NOT_FOUND (the card) or absent (the list).
 *
 * Vocabulary:
 * - standing: `banned` (an active ban without an end), `suspended` (an active ban with one),
 *   `warned` (a moderator warned them, ever), else `active`; a ban outranks a warning.
 * - pending: the queue's Pending tab (unpublished, undecided, not deleted).
 * Paged newest reader first by a cursor on (created_at, id).
 */
import "server-only";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { CommentModerationState, Member, Prisma } from "../../generated/prisma/client";
import { isPlaceholderEmail } from "../../members/identities";
import { memberLookupConditions } from "../../members/member-lookup";
import { parseInput } from "../../validation";
import { activeBanWhere } from "../moderation/bans/bans";
import { requireModerator } from "../moderation/moderator";
import { readerHistory } from "../moderation/queue/queue";
import {
  readerStatus,
  ZReaderCardInput,
  ZReaderSearchInput,
  type TCommentCounts,
  type TNoticeKind,
  type TReaderCard,
  type TReaderPage,
  type TReaderRow,
  type TReaderSearchInput,
} from "./community.schema";

/** The queue's Pending tab, for one reader (queue.ts `tabWhere("pending")`). */
function pendingCommentsWhere(accountId: number, memberId?: number): Prisma.CommentWhereInput {
  return {
    accountId,
    ...(memberId === undefined ? {} : { authorId: memberId }),
    isPublished: false,
    moderationState: "UNDECIDED",
    deletedAt: null,
  };
}

const STATE_WIRE: Record<CommentModerationState, "undecided" | "approved" | "rejected" | "spam"> = {
  UNDECIDED: "undecided",
  APPROVED: "approved",
  REJECTED: "rejected",
  SPAM: "spam",
};
const KIND_WIRE: Record<"WARNING" | "BAN" | "SUSPENSION", TNoticeKind> = {
  WARNING: "warning",
  BAN: "ban",
  SUSPENSION: "suspension",
};

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

// ─── rows ────────────────────────────────────────────────────────────────────────────────────

type MemberFields = Pick<Member, "id" | "name" | "username" | "email" | "communicationEmail" | "createdAt">;
const MEMBER_SELECT = {
  id: true,
  name: true,
  username: true,
  email: true,
  communicationEmail: true,
  createdAt: true,
} as const;

/** Rows for members of one account: comment counts, standing, in a few queries. */
async function toRows(db: Db, accountId: number, members: MemberFields[], now: Date): Promise<TReaderRow[]> {
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const countBy = (where: Prisma.CommentWhereInput) =>
    db.comment.groupBy({
      by: ["authorId"],
      where: { accountId, authorId: { in: ids }, ...where },
      _count: { _all: true },
    });
  const [published, pending, rejected, bans, warnings] = await Promise.all([
    countBy({ isPublished: true, isSpam: false, deletedAt: null }),
    countBy({ isPublished: false, moderationState: "UNDECIDED", deletedAt: null }),
    countBy({ moderationState: "REJECTED", deletedAt: null }),
    db.commentBan.findMany({ where: { accountId, memberId: { in: ids }, ...activeBanWhere(now) } }),
    db.memberNotice.groupBy({
      by: ["memberId"],
      where: { accountId, memberId: { in: ids }, kind: "WARNING" },
      _count: { _all: true },
    }),
  ]);
  const counted = (groups: { authorId: number; _count: { _all: number } }[]) =>
    new Map(groups.map((g) => [g.authorId, g._count._all]));
  const [p, q, r] = [counted(published), counted(pending), counted(rejected)];
  const warned = new Set(warnings.map((w) => w.memberId));
  return members.map((m) => {
    const mine = bans.filter((b) => b.memberId === m.id);
    // A ban for good outranks a suspension; of suspensions, the one ending last.
    const ban =
      mine.find((b) => b.expiresAt === null) ??
      mine.sort((a, b) => b.expiresAt!.getTime() - a.expiresAt!.getTime())[0] ??
      null;
    const counts: TCommentCounts = {
      published: p.get(m.id) ?? 0,
      pending: q.get(m.id) ?? 0,
      rejected: r.get(m.id) ?? 0,
    };
    return {
      memberId: m.id,
      name: m.name,
      username: m.username,
      email: isPlaceholderEmail(m.email) ? m.communicationEmail : m.email,
      joinedAt: m.createdAt,
      status: readerStatus(ban, warned.has(m.id)),
      suspendedUntil: ban?.expiresAt ?? null,
      counts,
    };
  });
}

/** One reader's comment counts (after an action, for the answer). */
export async function commentCountsOf(db: Db, accountId: number, memberId: number): Promise<TCommentCounts> {
  const where = { accountId, authorId: memberId };
  const [published, pending, rejected] = await Promise.all([
    db.comment.count({ where: { ...where, isPublished: true, isSpam: false, deletedAt: null } }),
    db.comment.count({ where: pendingCommentsWhere(accountId, memberId) }),
    db.comment.count({ where: { ...where, moderationState: "REJECTED", deletedAt: null } }),
  ]);
  return { published, pending, rejected };
}

// ─── the list ────────────────────────────────────────────────────────────────────────────────

/** One page of the account's readers matching the search and filters, newest first. */
export async function searchReaders(
  db: Db,
  args: { actor: StaffActor; input: TReaderSearchInput; now: Date },
): Promise<TReaderPage> {
  requireModerator(args.actor);
  const input = parseInput(ZReaderSearchInput, args.input);
  const accountId = args.actor.accountId;
  const { now } = args;
  const and: Prisma.MemberWhereInput[] = [];
  if (input.q) and.push({ OR: memberLookupConditions(input.q) });
  if (input.status === "banned") and.push({ commentBans: { some: { accountId, liftedAt: null, expiresAt: null } } });
  if (input.status === "suspended")
    and.push({ commentBans: { some: { accountId, liftedAt: null, expiresAt: { gt: now } } } });
  if (input.status === "warned") and.push({ memberNotices: { some: { accountId, kind: "WARNING" } } });
  if (input.hasPending) and.push({ comments: { some: pendingCommentsWhere(accountId) } });
  if (input.cursor) {
    const after = decodeCursor(input.cursor);
    and.push({
      OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
    });
  }
  const rows = await db.member.findMany({
    where: { accountId, AND: and },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    select: MEMBER_SELECT,
  });
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: await toRows(db, accountId, page, now),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}

// ─── a reader's card ─────────────────────────────────────────────────────────────────────────

const CARD_DECISIONS_MAX = 100;
const CARD_NOTICES_MAX = 100;

/** A reader's card: their row, the queue's history of them, the decisions on their comments and the notices sent to them. */
export async function readerCard(
  db: Db,
  args: { actor: StaffActor; memberId: number; now: Date },
): Promise<TReaderCard> {
  const { actor, now } = args;
  requireModerator(actor);
  const { memberId } = parseInput(ZReaderCardInput, { memberId: args.memberId });
  const accountId = actor.accountId;
  const member = await db.member.findFirst({ where: { id: memberId, accountId }, select: MEMBER_SELECT });
  if (!member) throw new AppError("NOT_FOUND", "Reader not found.");
  const [[reader], history, decided, notices] = await Promise.all([
    toRows(db, accountId, [member], now),
    readerHistory(db, { actor, memberId, now }),
    db.comment.findMany({
      where: { accountId, authorId: memberId, decidedAt: { not: null } },
      orderBy: [{ decidedAt: "desc" }, { id: "desc" }],
      take: CARD_DECISIONS_MAX,
      select: { id: true, moderationState: true, decidedAt: true, decidedById: true },
    }),
    db.memberNotice.findMany({
      where: { accountId, memberId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: CARD_NOTICES_MAX,
    }),
  ]);
  const staffIds = [
    ...new Set([...decided.map((c) => c.decidedById), ...notices.map((n) => n.createdById)].filter((id) => !!id)),
  ] as string[];
  const staff = staffIds.length
    ? await db.adminUser.findMany({ where: { id: { in: staffIds }, accountId }, select: { id: true, name: true } })
    : [];
  const names = new Map(staff.map((s) => [s.id, s.name]));
  return {
    reader: reader!,
    history,
    decisions: decided.map((c) => ({
      commentId: c.id,
      state: STATE_WIRE[c.moderationState],
      decidedAt: c.decidedAt!,
      decidedBy: c.decidedById ? (names.get(c.decidedById) ?? null) : null,
    })),
    notices: notices.map((n) => ({
      id: n.id,
      kind: KIND_WIRE[n.kind],
      message: n.message,
      createdAt: n.createdAt,
      createdBy: names.get(n.createdById) ?? null,
      acknowledgedAt: n.acknowledgedAt,
    })),
  };
}
