/**
 * Member sessions: what a logged-in reader sends back on every request.
 *
 * A session token is 32 random bytes (base64url), shown once, at login or sign-up, in the
 * response header X-QT-AUTH and the cookies `qt-auth` and `session-cookie` (the names real
 * clients read: @quintype/backend and quintype-ruby read the header, quintype-api-php the
 * `session-cookie` cookie, bridgekeeper relies on `qt-auth`). Only its SHA-256 is stored, so a
 * leaked database does not leak sessions. A session ends at its expiry (MEMBER_SESSION_DAYS),
 * at logout, or when the member resets the password.
 */
import "server-only";

import { createHash, randomBytes } from "node:crypto";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Member } from "../generated/prisma/client";

export const SESSION_HEADER = "X-QT-AUTH";
export const SESSION_COOKIES = ["qt-auth", "session-cookie"] as const;

/** What an unauthenticated member call answers (bridgekeeper's wording). */
export const NOT_LOGGED_IN = "Could not find qt-auth cookie or X-QT-AUTH header, please Login.";

/** lastUsedAt is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Start a session; the token is returned once and never stored. */
export async function createMemberSession(db: Db, args: { memberId: number; now: Date; days: number }): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(args.now.getTime() + args.days * 86_400_000);
  await db.memberSession.create({ data: { memberId: args.memberId, tokenHash: hashToken(token), expiresAt, createdAt: args.now } });
  return { token, expiresAt };
}

/** The session token a request carries: the X-QT-AUTH header, else the qt-auth or session-cookie cookie. */
export function sessionTokenFromRequest(req: Request): string | null {
  const header = req.headers.get(SESSION_HEADER)?.trim();
  if (header) return header;
  const cookies = parseCookies(req.headers.get("cookie"));
  for (const name of SESSION_COOKIES) {
    const value = cookies.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

export type AuthenticatedMember = { member: Omit<Member, "passwordHash">; sessionId: string };

/**
 * The member whose live session `token` is, in `accountId`; UNAUTHORIZED otherwise (no token,
 * unknown, expired, revoked, or a session of another publisher's member).
 */
export async function authenticateMember(db: Db, args: { accountId: number; token: string | null; now: Date }): Promise<AuthenticatedMember> {
  const found = args.token && args.token.length <= 200 ? await findLiveSession(db, args.token, args.now) : null;
  if (!found || found.member.accountId !== args.accountId) throw new AppError("UNAUTHORIZED", NOT_LOGGED_IN);
  if (!found.lastUsedAt || args.now.getTime() - found.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.memberSession.update({ where: { id: found.id }, data: { lastUsedAt: args.now } });
  }
  return { member: found.member, sessionId: found.id };
}

async function findLiveSession(db: Db, token: string, now: Date) {
  const session = await db.memberSession.findUnique({ where: { tokenHash: hashToken(token) }, include: { member: true } });
  if (!session || session.revokedAt || session.expiresAt <= now) return null;
  return session;
}

/** End the session `token` names (logout). Unknown or already ended: nothing to do. */
export async function revokeMemberSession(db: Db, args: { token: string; now: Date }): Promise<boolean> {
  const { count } = await db.memberSession.updateMany({ where: { tokenHash: hashToken(args.token), revokedAt: null }, data: { revokedAt: args.now } });
  return count > 0;
}

/** End every live session of a member, but `exceptSessionId` (the one making the request, if any). */
export async function revokeMemberSessions(db: Db, args: { memberId: number; now: Date; exceptSessionId?: string }): Promise<number> {
  const { count } = await db.memberSession.updateMany({
    where: { memberId: args.memberId, revokedAt: null, ...(args.exceptSessionId ? { id: { not: args.exceptSessionId } } : {}) },
    data: { revokedAt: args.now },
  });
  return count;
}

export async function countLiveSessions(db: Db, args: { memberId: number; now: Date }): Promise<number> {
  return db.memberSession.count({ where: { memberId: args.memberId, revokedAt: null, expiresAt: { gt: args.now } } });
}

// ─── Cookies ─────────────────────────────────────────────────────────────────────────────────

/**
 * Set-Cookie values for a new session: HttpOnly (scripts cannot read it), SameSite=Lax (not sent
 * on cross-site POSTs), Secure when the request came over https.
 */
export function sessionCookies(token: string, args: { expiresAt: Date; now: Date; secure: boolean }): string[] {
  const maxAge = Math.max(0, Math.floor((args.expiresAt.getTime() - args.now.getTime()) / 1000));
  return SESSION_COOKIES.map((name) => cookie(name, token, { maxAge, expires: args.expiresAt, secure: args.secure }));
}

/** Set-Cookie values that remove the session cookies. */
export function clearedSessionCookies(args: { secure: boolean }): string[] {
  return SESSION_COOKIES.map((name) => cookie(name, "", { maxAge: 0, expires: new Date(0), secure: args.secure }));
}

/** Whether the request came over https (directly, or per the proxy's X-Forwarded-Proto). */
export function isSecureRequest(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return new URL(req.url).protocol === "https:";
}

function cookie(name: string, value: string, options: { maxAge: number; expires: Date; secure: boolean }): string {
  return [
    `${name}=${value}`,
    "Path=/",
    `Max-Age=${options.maxAge}`,
    `Expires=${options.expires.toUTCString()}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (!cookies.has(name)) cookies.set(name, decodeURIComponentSafe(part.slice(index + 1).trim()));
  }
  return cookies;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
