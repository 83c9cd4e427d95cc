/**
 * Dashboard sessions, kept on the server. The session cookie is a signed next-auth JWT, which by
 * itself stays valid until it expires: whoever holds a copy is signed in. So each sign-in also
 * writes an AdminSession row, the JWT names it (`sid`), and a request is honoured only while that
 * row exists, is not revoked and has not expired, and its user is not disabled.
 *
 *   createAdminSession          sign-in (next-auth's Credentials provider)
 *   findActiveAdminSession      every request (next-auth's jwt callback): user and session, one query
 *   revokeAdminSession          sign-out (next-auth's signOut event)
 *   revokeAdminSessionsOfUser   password change, role change, disabling (server/auth/staff.ts)
 *   purgeExpiredAdminSessions   housekeeping: rows past their expiry (to be run by a scheduled job)
 */
import "server-only";

import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { AdminSessionUser } from "./admin-session";

/** A session lasts this long from sign-in, however active it is (the cookie's maxAge is the same). */
export const ADMIN_SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** lastSeenAt is refreshed at most this often, so a busy dashboard does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

/** Longest user agent kept (they are free text sent by the client). */
const USER_AGENT_MAX = 512;

/** What a dashboard session reads of its user: who they are, and whether they may still sign in. */
export const SESSION_USER_SELECT = {
  id: true,
  name: true,
  email: true,
  accountId: true,
  roles: true,
  disabledAt: true,
  account: { select: { name: true } },
} satisfies Prisma.AdminUserSelect;

/** The signed-in user as the dashboard sees them. */
export function toSessionUser(
  user: Prisma.AdminUserGetPayload<{ select: typeof SESSION_USER_SELECT }>,
): AdminSessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    accountId: user.accountId,
    accountName: user.account.name,
    roles: user.roles,
  };
}

/** Record a new sign-in; its id goes into the session cookie. */
export async function createAdminSession(
  db: Db,
  args: { userId: string; ip?: string | null; userAgent?: string | null; now: Date; maxAgeSeconds?: number },
): Promise<{ id: string; expiresAt: Date }> {
  const maxAge = args.maxAgeSeconds ?? ADMIN_SESSION_MAX_AGE_SECONDS;
  return db.adminSession.create({
    data: {
      userId: args.userId,
      createdAt: args.now,
      expiresAt: new Date(args.now.getTime() + maxAge * 1000),
      lastSeenAt: args.now,
      ip: args.ip ?? null,
      userAgent: args.userAgent ? args.userAgent.slice(0, USER_AGENT_MAX) : null,
    },
    select: { id: true, expiresAt: true },
  });
}

/**
 * The user a session cookie stands for, or null when the cookie must be treated as signed out:
 * the session is missing, revoked, expired or belongs to someone else, or the user is disabled.
 * One indexed query (the session by primary key, its user and account joined in the same statement).
 */
export async function findActiveAdminSession(
  db: Db,
  args: { sessionId: string; userId: string; now: Date },
): Promise<AdminSessionUser | null> {
  if (!UUID.test(args.sessionId) || !UUID.test(args.userId)) return null;
  const session = await db.adminSession.findUnique({
    where: { id: args.sessionId },
    select: { userId: true, expiresAt: true, revokedAt: true, lastSeenAt: true, user: { select: SESSION_USER_SELECT } },
  });
  if (!session || session.userId !== args.userId || !isLive(session, args.now) || session.user.disabledAt) return null;
  if (!session.lastSeenAt || args.now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.adminSession.updateMany({ where: { id: args.sessionId }, data: { lastSeenAt: args.now } });
  }
  return toSessionUser(session.user);
}

/** End one session (sign-out). True when it was live until now; `userId`, when given, must own it. */
export async function revokeAdminSession(
  db: Db,
  args: { sessionId: string; userId?: string; now: Date },
): Promise<boolean> {
  if (!UUID.test(args.sessionId)) return false;
  const { count } = await db.adminSession.updateMany({
    where: { id: args.sessionId, ...(args.userId ? { userId: args.userId } : {}), revokedAt: null },
    data: { revokedAt: args.now },
  });
  return count > 0;
}

/**
 * End every session of a user, but `exceptSessionId` (the one a user changing their own password
 * works in). Returns how many were live. Call it in the transaction that makes the change, so a
 * session cannot outlive a change that committed.
 */
export async function revokeAdminSessionsOfUser(
  db: Db,
  args: { userId: string; exceptSessionId?: string; now: Date },
): Promise<number> {
  const { count } = await db.adminSession.updateMany({
    where: {
      userId: args.userId,
      revokedAt: null,
      expiresAt: { gt: args.now },
      ...(args.exceptSessionId ? { id: { not: args.exceptSessionId } } : {}),
    },
    data: { revokedAt: args.now },
  });
  return count;
}

/**
 * Delete sessions past their expiry, revoked or not: their cookies have expired too, and a missing
 * row reads as signed out anyway. Returns how many were deleted. Meant for a periodic job.
 */
export async function purgeExpiredAdminSessions(db: Db, args: { now: Date }): Promise<number> {
  const { count } = await db.adminSession.deleteMany({ where: { expiresAt: { lte: args.now } } });
  return count;
}

function isLive(session: { revokedAt: Date | null; expiresAt: Date }, now: Date): boolean {
  return session.revokedAt === null && session.expiresAt.getTime() > now.getTime();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
