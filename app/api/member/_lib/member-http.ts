/**
 * HTTP glue shared by the member routes (/api/member..., /api/v1/members/me, /api/logout,
 * /api/auth/v1/..., /api/stories/{id}/votes): which publisher a request is for, who the member
 * is, the login response with its token and cookies, and the per-e-mail login limits.
 * `_lib` is a private folder: the App Router serves nothing from it.
 */
import { getEnv } from "@/env.js";
import type { Db } from "@/server/db";
import type { AppPrismaClient } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { Member } from "@/server/generated/prisma/client";
import { flushOutbox } from "@/server/mail/outbox";
import { dispatchDeliveries } from "@/server/jobs/background";
import {
  authenticateMember,
  clearedSessionCookies,
  createMemberSession,
  isSecureRequest,
  SESSION_HEADER,
  sessionCookies,
  revokeMemberSession,
  sessionTokenFromRequest,
  type AuthenticatedMember,
} from "@/server/publishing/member-sessions";
import { loginMember, memberToWire, requestPasswordReset, resetPasswordWithToken, signupMember } from "@/server/publishing/members";
import type { TMemberLoginInput, TMemberSignupInput } from "@/server/publishing/members.schema";
import { getPublisher, resolvePublisherAccountId } from "@/server/publishing/publisher";
import { checkRateLimit, rateLimitHeaders } from "@/server/rate-limit";
import { getRateLimitStore } from "@/server/rate-limit/store";

/** The publisher (account) a public member request is for. */
export function publisherAccountId(db: Db, req: Request): Promise<number> {
  return resolvePublisherAccountId(db, { host: req.headers.get("host"), fallbackSlug: getEnv().PUBLISHING_ACCOUNT });
}

/** The logged-in member making the request (X-QT-AUTH or cookie), or UNAUTHORIZED. */
export async function requireMember(db: Db, req: Request): Promise<AuthenticatedMember & { accountId: number }> {
  const accountId = await publisherAccountId(db, req);
  const found = await authenticateMember(db, { accountId, token: sessionTokenFromRequest(req), now: new Date() });
  return { ...found, accountId };
}

/**
 * Start a session for `member` and answer `body` (default {member}) with the token in X-QT-AUTH
 * and in the qt-auth and session-cookie cookies.
 */
export async function respondWithSession(db: Db, req: Request, member: Member, options: { status?: number; body?: Record<string, unknown> } = {}): Promise<Response> {
  const now = new Date();
  const { token, expiresAt } = await createMemberSession(db, { memberId: member.id, now, days: getEnv().MEMBER_SESSION_DAYS });
  const headers = new Headers({ [SESSION_HEADER]: token, "Cache-Control": "no-store" });
  for (const cookie of sessionCookies(token, { expiresAt, now, secure: isSecureRequest(req) })) headers.append("Set-Cookie", cookie);
  return Response.json(options.body ?? { member: memberToWire(member) }, { status: options.status ?? 200, headers });
}

/** 204 that removes the session cookies (logout). */
export function loggedOutResponse(req: Request): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of clearedSessionCookies({ secure: isSecureRequest(req) })) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 204, headers });
}

/** JSON that no cache may keep (member data). */
export function privateJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "private, no-store" } });
}

// ─── Login throttling ────────────────────────────────────────────────────────────────────────

/**
 * Per-e-mail login limits, on top of the route's per-IP limit. Every attempt counts, right or
 * wrong, known e-mail or not, so a refusal reveals nothing about which e-mails exist:
 * - per e-mail and IP: 10 per 15 minutes, what a person mistyping meets;
 * - per e-mail from anywhere: 100 per 15 minutes, the backstop when IPs cannot be told apart (no
 *   TRUST_PROXY) or are many. Someone can hold one known e-mail's login up for 15 minutes that
 *   way; that is the price of not letting them guess its password at speed.
 */
export const LOGIN_LIMITS = {
  perEmailAndIp: { name: "member.login.email-ip", limit: 10, windowSeconds: 15 * 60 },
  perEmail: { name: "member.login.email", limit: 100, windowSeconds: 15 * 60 },
};

export async function throttleLogin(args: { accountId: number; identifier: string; ip: string }): Promise<void> {
  const store = await getRateLimitStore();
  const who = `${args.accountId}:${args.identifier.trim().toLowerCase()}`;
  const now = new Date();
  for (const [rule, identity] of [
    [LOGIN_LIMITS.perEmailAndIp, `${who}:${args.ip}`],
    [LOGIN_LIMITS.perEmail, who],
  ] as const) {
    const result = await checkRateLimit(store, rule, identity, now);
    if (!result.allowed) {
      throw new AppError("RATE_LIMITED", "Too many login attempts for this account. Try again later.", { headers: rateLimitHeaders(result, now) });
    }
  }
}

/** Per e-mail: at most 5 reset mails an hour, so the form cannot be used to flood someone's inbox. */
export const FORGOT_PASSWORD_LIMIT = { name: "member.forgot-password.email", limit: 5, windowSeconds: 3600 };

/**
 * The whole forgot-password exchange of both API flavours: limit, token and mail (when the
 * e-mail is a member), then send the mail. The caller answers the same message either way.
 */
export async function handleForgotPassword(db: AppPrismaClient, req: Request, email: string): Promise<void> {
  const accountId = await publisherAccountId(db, req);
  const now = new Date();
  const result = await checkRateLimit(await getRateLimitStore(), FORGOT_PASSWORD_LIMIT, `${accountId}:${email}`, now);
  if (!result.allowed) throw new AppError("RATE_LIMITED", "Too many password reset requests for this e-mail. Try again later.", { headers: rateLimitHeaders(result, now) });
  const publisher = await getPublisher(db, accountId, { appUrl: getEnv().APP_URL });
  await requestPasswordReset(db, { accountId, email, siteUrl: publisher.siteUrl, publisherName: publisher.name, now });
  await flushOutbox(db);
}

// ─── The exchanges both API flavours share ───────────────────────────────────────────────────
// The content API (/api/member...) answers {member}; bridgekeeper (/api/auth/v1/...) answers {user}.

export type MemberBodyKey = "member" | "user";

/** Sign-up: 201 with the member, logged in (token and cookies) unless "dont-login". */
export async function signupResponse(db: AppPrismaClient, req: Request, input: TMemberSignupInput, key: MemberBodyKey): Promise<Response> {
  const accountId = await publisherAccountId(db, req);
  const { member, deliveryIds } = await signupMember(db, { accountId, input, now: new Date() });
  await dispatchDeliveries(deliveryIds);
  const body = { [key]: memberToWire(member) };
  if (input["dont-login"]) return privateJson(body, 201);
  return respondWithSession(db, req, member, { status: 201, body });
}

/** Login: limits, credentials, then 200 with the member and a new session. */
export async function loginResponse(db: AppPrismaClient, req: Request, ip: string, input: TMemberLoginInput, key: MemberBodyKey): Promise<Response> {
  const accountId = await publisherAccountId(db, req);
  const identifier = (input.email || input.username)!;
  await throttleLogin({ accountId, identifier, ip });
  const member = await loginMember(db, { accountId, identifier, password: input.password });
  return respondWithSession(db, req, member, { body: { [key]: memberToWire(member) } });
}

/** Logout: ends the session the request carries (if any) and clears the cookies; 204 either way. */
export async function logoutResponse(db: Db, req: Request): Promise<Response> {
  const token = sessionTokenFromRequest(req);
  if (token && token.length <= 200) await revokeMemberSession(db, { token, now: new Date() });
  return loggedOutResponse(req);
}

/** Reset with a token: 200 {message}; the member's other sessions end. */
export async function resetPasswordResponse(db: AppPrismaClient, req: Request, token: string, password: string): Promise<Response> {
  const accountId = await publisherAccountId(db, req);
  const now = new Date();
  // A logged-in member resetting keeps the session they are using; every other one ends.
  const current = await authenticateMember(db, { accountId, token: sessionTokenFromRequest(req), now }).catch(() => null);
  await resetPasswordWithToken(db, { accountId, token, password, now, keepSessionId: current?.sessionId });
  return privateJson({ message: "Your password has been changed. Log in with the new password." });
}
