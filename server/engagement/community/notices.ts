/**
 * Moderators' notices as the reader sees them (docs/engagement.md "Notices to readers"): the
 * comment widget asks for the reader's unacknowledged notices, shows each once, and acknowledges
 * it. The reader is the JWT's member (found, never created: a reader never seen has no notices).
 *
 * - Answered: warnings not yet acknowledged, and ban or suspension notices not yet acknowledged
 *   whose ban is still in force (a lifted or ended ban has nothing left to say), oldest first.
 * - Acknowledging is idempotent (the first time is kept); another reader's or account's notice is
 *   404, as is a reader never seen.
 */
import "server-only";

import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { CommentBan, MemberNotice } from "../../generated/prisma/client";
import { findJwtMember } from "../../members/identities";
import { activeBanWhere } from "../moderation/bans/bans";
import type { TNoticeWire } from "./notices.schema";

/** At most this many notices in one answer (a reader rarely has more than one). */
const NOTICES_MAX = 20;

const KIND_WIRE = { WARNING: "warning", BAN: "ban", SUSPENSION: "suspension" } as const;

function noticeWire(notice: MemberNotice & { ban: CommentBan | null }): TNoticeWire {
  return {
    id: notice.id,
    kind: KIND_WIRE[notice.kind],
    message: notice.message,
    created_at: notice.createdAt.toISOString(),
    until: notice.kind === "SUSPENSION" ? (notice.ban?.expiresAt?.toISOString() ?? null) : null,
    acknowledged_at: notice.acknowledgedAt?.toISOString() ?? null,
  };
}

/** The reader's notices still to show. */
export async function listReaderNotices(
  db: Db,
  args: { accountId: number; user: ApiUser; now: Date },
): Promise<{ notices: TNoticeWire[] }> {
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  if (!member) return { notices: [] };
  const rows = await db.memberNotice.findMany({
    where: {
      accountId: args.accountId,
      memberId: member.id,
      acknowledgedAt: null,
      OR: [{ kind: "WARNING" }, { ban: { is: activeBanWhere(args.now) } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: NOTICES_MAX,
    include: { ban: true },
  });
  return { notices: rows.map(noticeWire) };
}

/** The reader says they saw a notice: it is not shown again. */
export async function acknowledgeNotice(
  db: Db,
  args: { accountId: number; user: ApiUser; noticeId: number; now: Date },
): Promise<{ notice: TNoticeWire }> {
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  const where = member ? { id: args.noticeId, accountId: args.accountId, memberId: member.id } : null;
  if (!where) throw new AppError("NOT_FOUND", "Notice not found.");
  await db.memberNotice.updateMany({ where: { ...where, acknowledgedAt: null }, data: { acknowledgedAt: args.now } });
  const notice = await db.memberNotice.findFirst({ where, include: { ban: true } });
  if (!notice) throw new AppError("NOT_FOUND", "Notice not found.");
  return { notice: noticeWire(notice) };
}
