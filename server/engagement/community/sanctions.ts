/**
 * What a moderator does to a reader from the Community page (docs/engagement.md "Community"):
 * warn, suspend until a time, ban for good, lift, and reject every comment of theirs waiting in
 * the pending queue. Owners and moderators only; another account's reader is NOT_FOUND.
 *
 * - Bans and suspensions are rows of `comment_bans` (moderation/bans/bans.ts): a ban for good is
 *   bans.ts `banReader` with no duration; a suspension, which ends at a chosen instant rather than
 *   after whole days, is written here by the same rule (the member row locked, the active ban
 *   replaced, audited as `comment_ban.create`). Lifting is bans.ts `liftBan`.
 * - The message a reader is told (a warning, or the words of a ban or suspension) is a
 *   `member_notices` row, written in the same transaction; the comment widget shows it once
 *   (notices.ts).
 * - Rejecting a reader's pending comments (or all of them) runs the queue's own action (queue.ts
 *   `moderateComment`, the `reject` of the queue) on each, inside one transaction: every comment
 *   is audited, decided and announced exactly as a reject from the queue, and one more entry
 *   (`member.reject_comments`) records the batch. The comments are locked first, in id order, and
 *   only those still in scope under the lock are rejected, so a concurrent decision is never
 *   overruled by accident (nor a conflict).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { banReader, banView, liftBan, lockReader, replaceActiveBan } from "../moderation/bans/bans";
import { requireModerator } from "../moderation/moderator";
import { moderateComment } from "../moderation/queue/queue";
import type { TBanView } from "../moderation/queue/queue.schema";
import {
  suspensionEndProblem,
  ZBanForGoodInput,
  ZLiftInput,
  ZRejectCommentsInput,
  ZSuspendInput,
  ZWarnInput,
  type TBanForGoodInput,
  type TNoticeView,
  type TRejectCommentsInput,
  type TRejectCommentsResult,
  type TRejectScope,
  type TSanctionResult,
  type TSuspendInput,
  type TWarnInput,
} from "./community.schema";
import { commentCountsOf } from "./readers";

/**
 * A transaction that rejects a reader's pending comments one by one through the queue's action
 * may run longer than a single write: a minute, rather than the default 20 s.
 */
const SANCTION_TIMEOUT_MS = 60_000;

type Ctx = { actor: StaffActor; now: Date; ip?: string | null };

/** The acting moderator's name, for the answers (who banned, who warned). */
async function nameOf(db: Db, actor: StaffActor): Promise<string | null> {
  const user = await db.adminUser.findUnique({ where: { id: actor.id }, select: { name: true } });
  return user?.name ?? null;
}

/**
 * Reject the reader's comments of `scope` inside the caller's transaction, each through the
 * queue's own reject (approved ones with `override`: the moderator decides again on purpose);
 * answers how many changed.
 */
async function rejectIn(db: Db, ctx: Ctx & { memberId: number; scope: TRejectScope }): Promise<number> {
  const { actor, now, memberId, scope } = ctx;
  // Locked in id order (as any two such calls take them, so they cannot deadlock); a comment a
  // concurrent decision took out of the scope no longer matches once its lock is ours.
  const which =
    scope === "pending"
      ? Prisma.sql`is_published = false AND moderation_state = 'undecided'`
      : Prisma.sql`moderation_state IN ('undecided', 'approved')`;
  const chosen = await db.$queryRaw<{ id: number; approved: boolean }[]>`
    SELECT id, moderation_state = 'approved' AS approved FROM comments
    WHERE account_id = ${actor.accountId} AND author_id = ${memberId} AND deleted_at IS NULL AND ${which}
    ORDER BY id
    FOR UPDATE`;
  let rejected = 0;
  for (const { id, approved } of chosen) {
    const result = await moderateComment(db, {
      actor,
      input: { commentId: id, action: "reject", override: approved },
      now,
      ip: ctx.ip,
    });
    if (result.changed) rejected++;
  }
  if (rejected > 0) {
    await recordAudit(db, {
      actor,
      action: "member.reject_comments",
      targetType: "member",
      targetId: memberId,
      metadata: { scope, rejected, commentIds: chosen.map((c) => c.id).slice(0, 200) },
      ip: ctx.ip,
      now,
    });
  }
  return rejected;
}

/** Reject the reader's pending comments (or all of them), in one transaction. */
export async function rejectReaderComments(
  db: Db,
  args: Ctx & { input: TRejectCommentsInput },
): Promise<TRejectCommentsResult> {
  const { actor } = args;
  requireModerator(actor);
  const { memberId, scope } = parseInput(ZRejectCommentsInput, args.input);
  const rejected = await withTransaction(
    db,
    async (tx) => {
      await lockReader(tx, actor.accountId, memberId);
      return rejectIn(tx, { ...args, memberId, scope });
    },
    { timeout: SANCTION_TIMEOUT_MS },
  );
  return { rejected, counts: await commentCountsOf(db, actor.accountId, memberId) };
}

async function addNotice(
  db: Db,
  ctx: Ctx & { memberId: number; kind: "WARNING" | "BAN" | "SUSPENSION"; message: string; banId: number | null },
) {
  return db.memberNotice.create({
    data: {
      accountId: ctx.actor.accountId,
      memberId: ctx.memberId,
      kind: ctx.kind,
      message: ctx.message,
      banId: ctx.banId,
      createdById: ctx.actor.id,
      createdAt: ctx.now,
    },
  });
}

/** Warn a reader: the comment widget shows them `message` once, and they acknowledge it. */
export async function warnReader(db: Db, args: Ctx & { input: TWarnInput }): Promise<TNoticeView> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZWarnInput, args.input);
  return withTransaction(db, async (tx) => {
    await lockReader(tx, actor.accountId, input.memberId);
    const notice = await addNotice(tx, {
      ...args,
      memberId: input.memberId,
      kind: "WARNING",
      message: input.message,
      banId: null,
    });
    await recordAudit(tx, {
      actor,
      action: "member.warn",
      targetType: "member",
      targetId: input.memberId,
      metadata: { noticeId: notice.id, message: input.message },
      ip: args.ip,
      now,
    });
    return {
      id: notice.id,
      kind: "warning",
      message: notice.message,
      createdAt: notice.createdAt,
      createdBy: await nameOf(tx, actor),
      acknowledgedAt: null,
    };
  });
}

/** Ban a reader for good (bans.ts), with a message for them and, if asked, their pending comments rejected. */
export async function banReaderForGood(db: Db, args: Ctx & { input: TBanForGoodInput }): Promise<TSanctionResult> {
  const { actor } = args;
  requireModerator(actor);
  const input = parseInput(ZBanForGoodInput, args.input);
  return withTransaction(
    db,
    async (tx) => {
      // bans.ts writes the reader's notice with the ban.
      const ban = await banReader(tx, {
        actor,
        input: { memberId: input.memberId, reason: input.reason, durationDays: null },
        now: args.now,
        ip: args.ip,
        message: input.message,
      });
      const rejected = input.rejectPending
        ? await rejectIn(tx, { ...args, memberId: input.memberId, scope: "pending" })
        : 0;
      return { ban: { ...ban, createdBy: await nameOf(tx, actor) }, rejected };
    },
    { timeout: SANCTION_TIMEOUT_MS },
  );
}

/** Suspend a reader until `until` (an instant, stored in UTC), replacing an active ban; with a message and, if asked, their pending comments rejected. */
export async function suspendReader(db: Db, args: Ctx & { input: TSuspendInput }): Promise<TSanctionResult> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZSuspendInput, args.input);
  const problem = suspensionEndProblem(input.until, now);
  if (problem)
    throw new AppError("UNPROCESSABLE", `The end of the suspension ${problem}.`, {
      details: [{ field: "until", issue: problem }],
    });
  return withTransaction(
    db,
    async (tx) => {
      const { ban, replaced } = await replaceActiveBan(tx, {
        actor,
        memberId: input.memberId,
        reason: input.reason,
        expiresAt: input.until,
        now,
      });
      await recordAudit(tx, {
        actor,
        action: "comment_ban.create",
        targetType: "member",
        targetId: input.memberId,
        metadata: { banId: ban.id, kind: "suspension", expiresAt: input.until.toISOString(), replaced },
        ip: args.ip,
        now,
      });
      await addNotice(tx, {
        ...args,
        memberId: input.memberId,
        kind: "SUSPENSION",
        message: input.message,
        banId: ban.id,
      });
      const rejected = input.rejectPending
        ? await rejectIn(tx, { ...args, memberId: input.memberId, scope: "pending" })
        : 0;
      const view: TBanView = banView(ban, now);
      return { ban: { ...view, createdBy: await nameOf(tx, actor) }, rejected };
    },
    { timeout: SANCTION_TIMEOUT_MS },
  );
}

/** Lift the reader's ban or suspension (bans.ts); without one, nothing changes. */
export async function liftReaderBan(db: Db, args: Ctx & { memberId: number }): Promise<{ lifted: boolean }> {
  requireModerator(args.actor);
  const { memberId } = parseInput(ZLiftInput, { memberId: args.memberId });
  return liftBan(db, { actor: args.actor, memberId, now: args.now, ip: args.ip });
}
