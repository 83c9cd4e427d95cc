/**
 * Bans (docs/engagement.md "Bans"): a moderator bars a reader (the one member record, however
 * they sign in) from commenting in the account, for a number of days or for good, with a reason.
 *
 * - A ban is active while it is not lifted and its `expiresAt` is null or still to come: bans
 *   expire by time, nothing has to run.
 * - A banned reader's create, edit, hide, reaction, report, contribution (UGC) and image upload
 *   calls are 403 with a message that
 *   says until when (assertNotBanned, called by those services).
 * - At most one active ban per reader: banning locks the member row; banning a banned reader
 *   replaces the active ban (the old one is lifted by the new one, both audited). Lifting a ban
 *   that is not there changes nothing.
 * - Every ban writes the reader a notice (kind ban or suspension), which the comment widget shows
 *   once with until when (docs/engagement.md "Notices to readers").
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import { Prisma, type CommentBan } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { requireModerator } from "../moderator";
import { ZBanInput, ZLiftBanInput, type TBanInput, type TBanView } from "../queue/queue.schema";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Bans in force at `now`. */
export function activeBanWhere(now: Date): Prisma.CommentBanWhereInput {
  return { liftedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

/** The reader's ban in force at `now`, if any (the one ending last). */
export async function activeBanOf(
  db: Db,
  args: { accountId: number; memberId: number; now: Date },
): Promise<CommentBan | null> {
  const bans = await db.commentBan.findMany({
    where: { accountId: args.accountId, memberId: args.memberId, ...activeBanWhere(args.now) },
  });
  if (bans.length === 0) return null;
  return (
    bans.find((b) => b.expiresAt === null) ?? bans.sort((a, b) => b.expiresAt!.getTime() - a.expiresAt!.getTime())[0]!
  );
}

/**
 * Whether the reader is banned at `now`, and until when (null: for good), as one SQL expression
 * (activeBanWhere's rule) for statements that read more than the ban (../writing.ts): a JSON
 * object `{"until": ...}`, or NULL when no ban is in force.
 */
export function activeBanSql(args: { accountId: number; memberId: number; now: Date }): Prisma.Sql {
  return Prisma.sql`(
    SELECT json_build_object('until', CASE WHEN bool_or(b.expires_at IS NULL) THEN NULL ELSE max(b.expires_at) END)
    FROM comment_bans b
    WHERE b.account_id = ${args.accountId} AND b.member_id = ${args.memberId} AND b.lifted_at IS NULL
      AND (b.expires_at IS NULL OR b.expires_at > ${args.now})
    HAVING count(*) > 0)`;
}

/** 403 for a banned reader, saying until when (null: for good). */
export function bannedError(expiresAt: Date | null): AppError {
  return new AppError(
    "FORBIDDEN",
    expiresAt
      ? `You are banned from commenting here until ${expiresAt.toISOString()}.`
      : "You are banned from commenting here.",
    { details: [{ field: "jwt", issue: expiresAt ? `banned until ${expiresAt.toISOString()}` : "banned" }] },
  );
}

/** 403 for a banned reader, saying until when. */
export async function assertNotBanned(db: Db, args: { accountId: number; memberId: number; now: Date }): Promise<void> {
  const ban = await activeBanOf(db, args);
  if (ban) throw bannedError(ban.expiresAt);
}

export function banView(ban: CommentBan, now: Date, names: Map<string, string> = new Map()): TBanView {
  return {
    id: ban.id,
    reason: ban.reason,
    expiresAt: ban.expiresAt,
    createdAt: ban.createdAt,
    createdBy: names.get(ban.createdById) ?? null,
    liftedAt: ban.liftedAt,
    liftedBy: ban.liftedById ? (names.get(ban.liftedById) ?? null) : null,
    active: ban.liftedAt === null && (ban.expiresAt === null || ban.expiresAt > now),
  };
}

/** Lock the reader's row for the sanction written next (404 for a reader not of the account). */
export async function lockReader(db: Db, accountId: number, memberId: number): Promise<void> {
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM members WHERE id = ${memberId} AND account_id = ${accountId} FOR UPDATE`;
  if (rows.length === 0) throw new AppError("NOT_FOUND", "Reader not found.");
}

/**
 * A new ban of the reader until `expiresAt` (null: for good), inside the caller's transaction,
 * the reader locked and their active ban lifted by it (`replaced`: how many were).
 */
export async function replaceActiveBan(
  tx: Db,
  args: { actor: StaffActor; memberId: number; reason: string; expiresAt: Date | null; now: Date },
) {
  const { actor, memberId, now } = args;
  await lockReader(tx, actor.accountId, memberId);
  const replaced = await tx.commentBan.updateMany({
    where: { accountId: actor.accountId, memberId, ...activeBanWhere(now) },
    data: { liftedAt: now, liftedById: actor.id },
  });
  const ban = await tx.commentBan.create({
    data: {
      accountId: actor.accountId,
      memberId,
      reason: args.reason,
      expiresAt: args.expiresAt,
      createdById: actor.id,
      createdAt: now,
    },
  });
  return { ban, replaced: replaced.count };
}

/**
 * Ban a reader of the actor's account for `durationDays` (null: for good). The reader is told, once,
 * in the comment widget: a notice (`member_notices`, community/notices.ts) of kind ban or suspension
 * with `message` (empty: none), written with the ban.
 */
export async function banReader(
  db: Db,
  args: { actor: StaffActor; input: TBanInput; now: Date; ip?: string | null; message?: string },
): Promise<TBanView> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZBanInput, args.input);
  return withTransaction(db, async (tx) => {
    const expiresAt = input.durationDays === null ? null : new Date(now.getTime() + input.durationDays * DAY_MS);
    const { ban, replaced } = await replaceActiveBan(tx, {
      actor,
      memberId: input.memberId,
      reason: input.reason,
      expiresAt,
      now,
    });
    await tx.memberNotice.create({
      data: {
        accountId: actor.accountId,
        memberId: input.memberId,
        kind: expiresAt ? "SUSPENSION" : "BAN",
        message: args.message ?? "",
        banId: ban.id,
        createdById: actor.id,
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      actor,
      action: "comment_ban.create",
      targetType: "member",
      targetId: input.memberId,
      metadata: {
        banId: ban.id,
        durationDays: input.durationDays,
        expiresAt: expiresAt?.toISOString() ?? null,
        replaced,
      },
      ip: args.ip,
      now,
    });
    return banView(ban, now);
  });
}

/** Lift the reader's active ban; without one, nothing changes (`lifted: false`). */
export async function liftBan(
  db: Db,
  args: { actor: StaffActor; memberId: number; now: Date; ip?: string | null },
): Promise<{ lifted: boolean }> {
  const { actor, now } = args;
  requireModerator(actor);
  const { memberId } = parseInput(ZLiftBanInput, { memberId: args.memberId });
  return withTransaction(db, async (tx) => {
    await lockReader(tx, actor.accountId, memberId);
    const lifted = await tx.commentBan.updateMany({
      where: { accountId: actor.accountId, memberId, ...activeBanWhere(now) },
      data: { liftedAt: now, liftedById: actor.id },
    });
    if (lifted.count === 0) return { lifted: false };
    await recordAudit(tx, {
      actor,
      action: "comment_ban.lift",
      targetType: "member",
      targetId: memberId,
      metadata: { bans: lifted.count },
      ip: args.ip,
      now,
    });
    return { lifted: true };
  });
}
