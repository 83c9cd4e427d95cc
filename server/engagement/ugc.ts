/**
 * User-generated content (docs/engagement.md, "User-generated content"): readers' contributions
 * through the UGC form, reviewed in the dashboard.
 *
 * - A signed-in reader (publisher JWT → their one member) submits plain text (HTML in it is text,
 *   stored as written and never rendered), an optional title, http(s) links and images Masthead
 *   serves (the comment image rule), on a topic (type and values). Text beyond UGC_LIMITS is 413.
 * - Every submission waits for review (pending). It is scored by the comment scorer (toxicity,
 *   spam, reasons, with the account's moderation settings: a banned "reject" word refuses it, 400,
 *   as for a comment) so reviewers see the risky ones; the scores are never shown to the reader.
 * - Idempotent: the same reader submitting the same content within UGC_DUPLICATE_WINDOW_MS gets
 *   the first submission back. The reader's member row is locked (FOR UPDATE) for the check and
 *   the insert, so a double click, even two requests at once, makes one submission.
 * - Moderators and editors list, read and decide (approve or reject; a decision may be changed),
 *   every change audited (ugc.approve, ugc.reject). Another account's submission is NOT_FOUND.
 */
import "server-only";

import { createHash } from "node:crypto";

import { getEnv } from "../../env.js";
import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Prisma, UgcSubmission } from "../generated/prisma/client";
import { findJwtMember, findOrCreateJwtMember } from "../members/identities";
import { getPublisher } from "../publishing/publisher";
import { isMastheadImageUrl } from "./comment-bodies";
import type { TCommentOp } from "./comments.schema";
import { decodeFeedCursor, encodeFeedCursor } from "./feed";
import type { TFeed } from "./feed.schema";
import { moderateWriting } from "./moderation/writing";
import {
  UGC_DUPLICATE_WINDOW_MS,
  UGC_LIMITS,
  ZListUgcInput,
  type TCreateUgcBody,
  type TDecideUgcInput,
  type TListUgcInput,
  type TMyUgcQuery,
  type TUgcPage,
  type TUgcReviewStatus,
  type TUgcStatus,
  type TUgcSubmissionWire,
  type TUgcView,
} from "./ugc.schema";

const FIELD = "body.submission";

const STATUS_WIRE: Record<TUgcReviewStatus, TUgcStatus> = {
  PENDING: "pending",
  APPROVED: "approved",
  REJECTED: "rejected",
};

function ugcWire(s: UgcSubmission): TUgcSubmissionWire {
  return {
    id: s.id,
    topic_type: s.topicType,
    topic_values: s.topicValues,
    title: s.title,
    text: s.text,
    links: s.links,
    images: s.images,
    status: STATUS_WIRE[s.status],
    created_at: s.createdAt.toISOString(),
    decided_at: s.decidedAt ? s.decidedAt.toISOString() : null,
  };
}

// ─── submitting ──────────────────────────────────────────────────────────────────────────────

/** The scorer's view of a submission: its title and text, links and images, as a comment's ops. */
function opsOf(input: TCreateUgcBody["submission"]): TCommentOp[] {
  return [
    { insert: input.title ? `${input.title}\n${input.text}` : input.text },
    ...input.links.map((link) => ({ attributes: { link }, insert: link })),
    ...input.images.map((image) => ({ insert: { image } })),
  ];
}

async function moderate(db: Db, args: { accountId: number; memberId: number; ops: TCommentOp[]; now: Date }) {
  const decision = await moderateWriting(db, {
    ...args,
    field: `${FIELD}.text`,
    refusal: "This submission cannot be sent",
    // A ban covers every way a reader writes (bans.ts): 403, saying until when.
    refuseBanned: true,
  });
  return { toxicity: decision.toxicity, isSpam: decision.isSpam, moderationReasons: decision.reasons };
}

/**
 * Submit a contribution as the JWT's reader (pending review). `created` is false when the same
 * submission within UGC_DUPLICATE_WINDOW_MS was answered instead.
 */
export async function submitUgc(
  db: Db,
  args: { accountId: number; user: ApiUser; input: TCreateUgcBody; now: Date },
): Promise<{ created: boolean; submission: TUgcSubmissionWire }> {
  const { accountId, now } = args;
  const input = args.input.submission;
  if (input.text.length > UGC_LIMITS.maxTextLength) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `A submission has at most ${UGC_LIMITS.maxTextLength} characters of text.`,
      {
        details: [{ field: `${FIELD}.text`, issue: `more than ${UGC_LIMITS.maxTextLength} characters` }],
      },
    );
  }
  const appUrl = getEnv().APP_URL;
  const publisher = await getPublisher(db, accountId, { appUrl });
  input.images.forEach((image, index) => {
    if (!isMastheadImageUrl(image, publisher, appUrl)) {
      throw new AppError("BAD_REQUEST", "Images must be uploaded to Masthead first.", {
        details: [{ field: `${FIELD}.images.${index}`, issue: "is not an image Masthead serves" }],
      });
    }
  });
  const content = {
    topicType: input.topic_type,
    topicValues: input.topic_values,
    title: input.title,
    text: input.text,
    links: input.links,
    images: input.images,
  };
  const digest = createHash("sha256").update(JSON.stringify(content)).digest("hex");
  const member = await findOrCreateJwtMember(db, { accountId, user: args.user, now });
  const scores = await moderate(db, { accountId, memberId: member.id, ops: opsOf(input), now });
  return withTransaction(db, async (tx) => {
    // One writer per reader at a time: the duplicate check and the insert cannot interleave.
    await tx.$queryRaw`SELECT id FROM members WHERE id = ${member.id} FOR UPDATE`;
    const duplicate = await tx.ugcSubmission.findFirst({
      where: {
        memberId: member.id,
        bodyDigest: digest,
        createdAt: { gte: new Date(now.getTime() - UGC_DUPLICATE_WINDOW_MS) },
      },
      orderBy: { id: "asc" },
    });
    if (duplicate) return { created: false, submission: ugcWire(duplicate) };
    const submission = await tx.ugcSubmission.create({
      data: { accountId, memberId: member.id, ...content, ...scores, bodyDigest: digest, createdAt: now },
    });
    return { created: true, submission: ugcWire(submission) };
  });
}

/** The reader's own submissions with their status, newest first, a page at a time. */
export async function listMyUgc(
  db: Db,
  args: { accountId: number; user: ApiUser; query: TMyUgcQuery },
): Promise<TFeed<TUgcSubmissionWire>> {
  const { query } = args;
  const after = query.cursor ? decodeFeedCursor(query.cursor) : null;
  // A reader never seen has submitted nothing; reading creates nothing.
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  if (!member) return { items: [], next_cursor: null };
  const rows = await db.ugcSubmission.findMany({
    where: {
      accountId: args.accountId,
      memberId: member.id,
      ...(query.status ? { status: query.status.toUpperCase() as TUgcReviewStatus } : {}),
      ...(after ? keysetBefore(after) : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    items: shown.map(ugcWire),
    next_cursor: rows.length > query.limit && last ? encodeFeedCursor(last) : null,
  };
}

function keysetBefore(after: { createdAt: Date; id: number }): Prisma.UgcSubmissionWhereInput {
  return {
    AND: [
      { createdAt: { lte: after.createdAt } },
      { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
    ],
  };
}

// ─── reviewing (dashboard) ───────────────────────────────────────────────────────────────────

const VIEW_INCLUDE = {
  member: { select: { id: true, name: true, avatarUrl: true } },
  decidedBy: { select: { id: true, name: true } },
} as const;

type ViewRow = Prisma.UgcSubmissionGetPayload<{ include: typeof VIEW_INCLUDE }>;

function viewOf(row: ViewRow): TUgcView {
  return {
    id: row.id,
    topicType: row.topicType,
    topicValues: row.topicValues,
    title: row.title,
    text: row.text,
    links: row.links,
    images: row.images,
    status: row.status,
    toxicity: row.toxicity,
    isSpam: row.isSpam,
    moderationReasons: row.moderationReasons,
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy,
    member: row.member,
  };
}

/** One page of the account's submissions, newest first, by status and topic type. */
export async function listUgcForReview(db: Db, args: { actor: StaffActor } & TListUgcInput): Promise<TUgcPage> {
  const { cursor, limit, status, topicType } = ZListUgcInput.parse(args);
  let after: { createdAt: Date; id: number } | null = null;
  if (cursor) {
    try {
      after = decodeFeedCursor(cursor);
    } catch {
      throw new AppError("BAD_REQUEST", "The cursor is not one this listing returned.", {
        details: [{ field: "cursor", issue: "is invalid" }],
      });
    }
  }
  const rows = await db.ugcSubmission.findMany({
    where: {
      accountId: args.actor.accountId,
      ...(status ? { status } : {}),
      ...(topicType ? { topicType: topicType.toLowerCase() } : {}),
      ...(after ? keysetBefore(after) : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: VIEW_INCLUDE,
  });
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(viewOf), nextCursor: rows.length > limit && last ? encodeFeedCursor(last) : null };
}

/** How many of the account's submissions are pending, approved and rejected. */
export async function countUgc(db: Db, args: { actor: StaffActor }): Promise<Record<TUgcReviewStatus, number>> {
  const groups = await db.ugcSubmission.groupBy({
    by: ["status"],
    where: { accountId: args.actor.accountId },
    _count: { _all: true },
  });
  const counts = { PENDING: 0, APPROVED: 0, REJECTED: 0 };
  for (const g of groups) counts[g.status] = g._count._all;
  return counts;
}

/** The topic types the account's submissions use, with how many each (for the filter). */
export async function listUgcTopicTypes(
  db: Db,
  args: { actor: StaffActor },
): Promise<{ topicType: string; count: number }[]> {
  const groups = await db.ugcSubmission.groupBy({
    by: ["topicType"],
    where: { accountId: args.actor.accountId },
    _count: { _all: true },
    orderBy: { topicType: "asc" },
  });
  return groups.map((g) => ({ topicType: g.topicType, count: g._count._all }));
}

/**
 * Approve or reject a submission (or change an earlier decision), audited. The same decision again
 * changes nothing (`changed` false, no audit entry), also when two reviewers click at once.
 */
export async function decideUgc(
  db: Db,
  args: { actor: StaffActor; input: TDecideUgcInput; now: Date },
): Promise<{ submission: TUgcView; changed: boolean }> {
  const { actor, input, now } = args;
  return withTransaction(db, async (tx) => {
    const updated = await tx.ugcSubmission.updateMany({
      where: { id: input.id, accountId: actor.accountId, status: { not: input.decision } },
      data: { status: input.decision, decidedAt: now, decidedById: actor.id },
    });
    const row = await tx.ugcSubmission.findFirst({
      where: { id: input.id, accountId: actor.accountId },
      include: VIEW_INCLUDE,
    });
    if (!row) throw new AppError("NOT_FOUND", "Submission not found.");
    const changed = updated.count === 1;
    if (changed) {
      await recordAudit(tx, {
        actor,
        action: input.decision === "APPROVED" ? "ugc.approve" : "ugc.reject",
        targetType: "ugc_submission",
        targetId: row.id,
        metadata: { topic_type: row.topicType },
        now,
      });
    }
    return { submission: viewOf(row), changed };
  });
}
