/**
 * Member sessions: what a logged-in reader sends back on every request.
 *
 * A session token is 32 random bytes (base64url), shown once, at login or sign-up (how it travels
 * over HTTP, header and cookies, is server/http/member-session.ts). Only its SHA-256 is stored,
 * so a leaked database does not leak sessions (server/security/secret-tokens.ts). A session ends at its expiry
 * (MEMBER_SESSION_DAYS), at logout, or when the member resets the password.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Member } from "../generated/prisma/client";
import { hashToken, newToken } from "../security/secret-tokens";

/** What an unauthenticated member call answers (bridgekeeper's wording). */
const NOT_LOGGED_IN = "Could not find qt-auth cookie or X-QT-AUTH header, please Login.";

/** lastUsedAt is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** A session just started: its token, shown once. */
export type MemberSession = { token: string; expiresAt: Date };

/** Start a session; the token is returned once and never stored. */
export async function createMemberSession(
  db: Db,
  args: { memberId: number; now: Date; days: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(args.now.getTime() + args.days * 86_400_000);
  await db.memberSession.create({
    data: { memberId: args.memberId, tokenHash: hashToken(token), expiresAt, createdAt: args.now },
  });
  return { token, expiresAt };
}

export type AuthenticatedMember = { member: Omit<Member, "passwordHash">; sessionId: string };

/**
 * The member whose live session `token` is, in `accountId`; UNAUTHORIZED otherwise (no token,
 * unknown, expired, revoked, or a session of another publisher's member).
 */
export async function authenticateMember(
  db: Db,
  args: { accountId: number; token: string | null; now: Date },
): Promise<AuthenticatedMember> {
  const found = args.token ? await findLiveSession(db, args.token, args.now) : null;
  if (!found || found.member.accountId !== args.accountId) throw new AppError("UNAUTHORIZED", NOT_LOGGED_IN);
  if (!found.lastUsedAt || args.now.getTime() - found.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.memberSession.update({ where: { id: found.id }, data: { lastUsedAt: args.now } });
  }
  return { member: found.member, sessionId: found.id };
}

async function findLiveSession(db: Db, token: string, now: Date) {
  const session = await db.memberSession.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { member: true },
  });
  if (!session || session.revokedAt || session.expiresAt <= now) return null;
  return session;
}

/** End one session (logout). Already ended: nothing to do. */
export async function revokeMemberSession(db: Db, args: { sessionId: string; now: Date }): Promise<boolean> {
  const { count } = await db.memberSession.updateMany({
    where: { id: args.sessionId, revokedAt: null },
    data: { revokedAt: args.now },
  });
  return count > 0;
}

/** End every live session of a member, but `exceptSessionId` (the one making the request, if any). */
export async function revokeMemberSessions(
  db: Db,
  args: { memberId: number; now: Date; exceptSessionId?: string },
): Promise<number> {
  const { count } = await db.memberSession.updateMany({
    where: {
      memberId: args.memberId,
      revokedAt: null,
      ...(args.exceptSessionId ? { id: { not: args.exceptSessionId } } : {}),
    },
    data: { revokedAt: args.now },
  });
  return count;
}

export async function countLiveSessions(db: Db, args: { memberId: number; now: Date }): Promise<number> {
  return db.memberSession.count({ where: { memberId: args.memberId, revokedAt: null, expiresAt: { gt: args.now } } });
}
