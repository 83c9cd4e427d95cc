/**
 * Members: readers with an account on the publisher's site (spec §2.3 Member, §4.4 /api/member...).
 * Every member belongs to one account (publisher); e-mails (stored lower-cased) and usernames are
 * unique per account.
 *
 * Rules kept here:
 * - passwords are hashed with scrypt (server/auth/password.ts) and never leave this module;
 * - login answers the same error, after the same work (a scrypt verification), whether the
 *   e-mail is unknown or the password wrong;
 * - a password reset request answers the same whether or not the e-mail exists; when it does, a
 *   single-use token valid for an hour and the e-mail carrying it are written in one transaction;
 * - sign-up emits the CONTENT webhook event "member-signup" in its transaction;
 * - login is throttled per e-mail (on top of the route's per-IP limit), and reset mails per e-mail.
 *
 * Engagement and subscriptions reach the same reader through this module: one person, one record.
 */
import "server-only";

import { getEnv } from "../../env.js";
import { getDummyPasswordHash, hashPassword, verifyPassword } from "../auth/password";
import type { Db } from "../db/client";
import { isUniqueClash, withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Member, Prisma } from "../generated/prisma/client";
import { queueEmail } from "../mail/outbox";
import { readerMail, renderSimpleMail } from "../mail/reader-mail";
import type { Publisher } from "../publishing/publisher";
import { addressBucket } from "../rate-limit/address";
import { assertWithinRateLimits } from "../rate-limit/assert";
import { emitWebhookEvent } from "../webhooks/deliveries";
import type { TMemberLoginInput, TMemberSignupInput, TMemberWire } from "./members.schema";
import { passwordResetLink, type ResetPage } from "./reset-link";
import {
  createMemberSession,
  hashToken,
  newToken,
  revokeMemberSession,
  revokeMemberSessions,
  type MemberSession,
} from "./sessions";

const RESET_TOKEN_TTL_MS = 3600_000;
export const PASSWORD_RESET_KIND = "member.password_reset";

/** The one answer to a password reset request, whether or not the e-mail exists. */
export const FORGOT_PASSWORD_MESSAGE =
  "If an account exists for this e-mail, we have sent a link to reset its password. It is valid for one hour.";
/** The one answer to failed login, whether the e-mail is unknown or the password wrong. */
export const BAD_CREDENTIALS_MESSAGE = "The e-mail or password is incorrect.";
const BAD_RESET_TOKEN_MESSAGE = "This password reset link is invalid, expired or already used. Ask for a new one.";

export function memberToWire(member: MemberRecord): TMemberWire {
  return {
    id: member.id,
    name: member.name,
    username: member.username,
    "first-name": member.firstName,
    "last-name": member.lastName,
    email: member.email,
    "email-verified": member.emailVerified,
    "phone-number": member.phoneNumber,
    "communication-email": member.communicationEmail,
    bio: member.bio,
    "avatar-url": member.avatarUrl,
    "avatar-s3-key": member.avatarS3Key,
    "twitter-handle": member.twitterHandle,
    source: member.source,
    "publisher-id": member.accountId,
    metadata: asObject(member.metadata),
    "created-at": member.createdAt.getTime(),
    "updated-at": member.updatedAt.getTime(),
  };
}

/** A member as every query returns it: the password hash never leaves this module. */
export type MemberRecord = Omit<Member, "passwordHash">;

/** A member with the session just started (none when the client asked not to be logged in). */
type MemberWithSession = { member: MemberRecord; session: MemberSession | null };

function newSession(db: Db, memberId: number, now: Date): Promise<MemberSession> {
  return createMemberSession(db, { memberId, now, days: getEnv().MEMBER_SESSION_DAYS });
}

/**
 * Sign up: create the member, logged in at once unless "dont-login". CONFLICT when the e-mail
 * (any case) or username is taken in the account, also when two sign-ups race (the unique
 * indexes decide). Emits "member-signup".
 */
export async function signUpMember(
  db: Db,
  args: {
    publisher: Publisher;
    input: TMemberSignupInput;
    now: Date;
    /** The locale the reader signed up in, kept when it is not the account's default (signUpLocale). */
    locale?: string | null;
  },
): Promise<MemberWithSession> {
  const { input, now } = args;
  const accountId = args.publisher.accountId;
  const name = input.name ?? input.username ?? input.email.split("@")[0]!;
  await assertAvailable(db, accountId, input.email, input.username);
  // Hash before the transaction: scrypt takes tens of milliseconds, no lock should wait on it.
  const passwordHash = await hashPassword(input.password);
  try {
    return await withTransaction(db, async (tx) => {
      const member = await tx.member.create({
        data: {
          accountId,
          name,
          username: input.username ?? null,
          firstName: input["first-name"] || null,
          lastName: input["last-name"] || null,
          email: input.email,
          passwordHash,
          source: "email",
          locale: args.locale ?? null,
          createdAt: now,
        },
      });
      await emitMemberSignup(tx, member, now);
      return { member, session: input["dont-login"] ? null : await newSession(tx, member.id, now) };
    });
  } catch (error) {
    if (isUniqueClash(error)) throw takenError(error);
    throw error;
  }
}

/** The CONTENT webhook event "member-signup", in the transaction that created `member`. */
export async function emitMemberSignup(tx: Db, member: MemberRecord, now: Date): Promise<void> {
  await emitWebhookEvent(tx, {
    accountId: member.accountId,
    kind: "CONTENT",
    name: "member-signup",
    data: { member: memberToWire(member) },
    occurredAt: now,
  });
}

async function assertAvailable(db: Db, accountId: number, email: string, username: string | undefined): Promise<void> {
  // An e-mail a subscriber holds as a further identity (server/subscriptions/subscribers/subscribers.ts) is taken too.
  const heldEmail = { identities: { some: { provider: "email", externalId: email } } };
  const clash = await db.member.findFirst({
    where: { accountId, OR: [{ email }, heldEmail, ...(username ? [{ username }] : [])] },
    select: { email: true, username: true },
  });
  if (!clash) return;
  throw !username || clash.username !== username || clash.email === email
    ? new AppError("CONFLICT", "A member with this e-mail already exists.", {
        details: [{ field: "body.email", issue: "is already registered" }],
      })
    : new AppError("CONFLICT", "This username is taken.", {
        details: [{ field: "body.username", issue: "is already taken" }],
      });
}

function takenError(error: unknown): AppError {
  const target = JSON.stringify((error as { meta?: unknown }).meta ?? "");
  return target.includes("username")
    ? new AppError("CONFLICT", "This username is taken.", {
        details: [{ field: "body.username", issue: "is already taken" }],
      })
    : new AppError("CONFLICT", "A member with this e-mail already exists.", {
        details: [{ field: "body.email", issue: "is already registered" }],
      });
}

// ─── Login throttling ────────────────────────────────────────────────────────────────────────

/**
 * Per-e-mail login limits, on top of the route's per-IP limit. Every attempt counts, right or
 * wrong, known e-mail or not, so a refusal reveals nothing about which e-mails exist:
 * - per e-mail and IP: 10 per 15 minutes, what a person mistyping meets;
 * - per e-mail from anywhere: 100 per 15 minutes, the backstop when IPs cannot be told apart (on
 *   Vercel without TRUST_PROXY) or are many. Someone can hold one known e-mail's login up for 15 minutes that
 *   way; that is the price of not letting them guess its password at speed.
 */
const LOGIN_LIMITS = {
  perEmailAndIp: { name: "member.login.email-ip", limit: 10, windowSeconds: 15 * 60 },
  perEmail: { name: "member.login.email", limit: 100, windowSeconds: 15 * 60 },
};

async function throttleLogin(args: { accountId: number; identifier: string; ip: string; now: Date }): Promise<void> {
  const who = `${args.accountId}:${args.identifier.trim().toLowerCase()}`;
  await assertWithinRateLimits(
    [
      [LOGIN_LIMITS.perEmailAndIp, `${who}:${addressBucket(args.ip)}`],
      [LOGIN_LIMITS.perEmail, who],
    ],
    "Too many login attempts for this account. Try again later.",
    args.now,
  );
}

/**
 * Log in by e-mail (any case) or username, and start a session. UNAUTHORIZED with one message
 * otherwise. An unknown identifier still costs one scrypt verification, against a dummy hash, so
 * timing does not tell which e-mails have accounts.
 */
export async function logInMember(
  db: Db,
  args: { publisher: Publisher; input: TMemberLoginInput; ip: string; now: Date },
): Promise<MemberWithSession & { session: MemberSession }> {
  const accountId = args.publisher.accountId;
  const identifier = (args.input.email || args.input.username || "").trim();
  await throttleLogin({ accountId, identifier, ip: args.ip, now: args.now });
  const candidates = identifier
    ? await db.member.findMany({
        where: { accountId, OR: [{ email: identifier.toLowerCase() }, { username: identifier }] },
        omit: { passwordHash: false },
        take: 2,
      })
    : [];
  // An e-mail match wins over a username that happens to equal another member's e-mail.
  const member = candidates.find((m) => m.email === identifier.toLowerCase()) ?? candidates[0];
  const ok = await verifyPassword(args.input.password, member?.passwordHash ?? (await getDummyPasswordHash()));
  if (!member || !ok) throw new AppError("UNAUTHORIZED", BAD_CREDENTIALS_MESSAGE);
  const { passwordHash: _hash, ...withoutHash } = member;
  return { member: withoutHash, session: await newSession(db, member.id, args.now) };
}

/** End a session (logout); nothing to do when it already ended. */
export async function logOutMember(db: Db, args: { sessionId: string; now: Date }): Promise<void> {
  await revokeMemberSession(db, args);
}

/** Per e-mail: at most 5 reset mails an hour, so the form cannot be used to flood someone's inbox. */
const FORGOT_PASSWORD_LIMIT = { name: "member.forgot-password.email", limit: 5, windowSeconds: 3600 };

/**
 * A password reset request. When `email` is a member of the account: a single-use token (only
 * its SHA-256 kept) valid for an hour, and the e-mail with the link, in one transaction (sent once
 * it commits). The link opens the publisher's own reset page, or Masthead's hosted one for
 * `page: "hosted"` (server/members/reset-link.ts). Returns nothing either way: the caller answers
 * FORGOT_PASSWORD_MESSAGE.
 */
export async function requestPasswordReset(
  db: Db,
  args: { publisher: Publisher; email: string; now: Date; page?: ResetPage },
): Promise<void> {
  const { publisher, now } = args;
  const accountId = publisher.accountId;
  const email = args.email.trim().toLowerCase();
  await assertWithinRateLimits(
    [[FORGOT_PASSWORD_LIMIT, `${accountId}:${email}`]],
    "Too many password reset requests for this e-mail. Try again later.",
    now,
  );
  const member = await db.member.findFirst({
    where: { accountId, email },
    select: { id: true, name: true, email: true },
  });
  if (!member) return;
  const token = newToken();
  const env = getEnv();
  const link = await passwordResetLink(db, {
    publisher,
    token,
    page: args.page ?? "site",
    appUrl: env.APP_URL,
    fallbackSlug: env.PUBLISHING_ACCOUNT,
  });
  await withTransaction(db, async (tx) => {
    await tx.passwordResetToken.create({
      data: {
        memberId: member.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
        createdAt: now,
      },
    });
    const mail = await readerMail(tx, accountId, member.id);
    await queueEmail(tx, {
      accountId,
      to: member.email,
      ...renderSimpleMail(mail, {
        subject: mail.t("resetSubject", { publisher: publisher.name }),
        name: member.name,
        blocks: [
          { p: mail.t("resetIntro", { publisher: publisher.name }) },
          { link, label: mail.t("resetButton") },
          { p: mail.t("resetOnce") },
        ],
      }),
      kind: PASSWORD_RESET_KIND,
      now,
    });
  });
}

/**
 * Set a new password with a reset token. The token is consumed by one conditional update (used
 * once, even by parallel requests); unknown, expired or used tokens are UNPROCESSABLE. Every
 * session of the member ends, except `keepSessionId` (the session making the request, if any).
 */
export async function resetPasswordWithToken(
  db: Db,
  args: { publisher: Publisher; token: string; password: string; now: Date; keepSessionId?: string },
): Promise<MemberRecord> {
  const accountId = args.publisher.accountId;
  const passwordHash = await hashPassword(args.password);
  const tokenHash = hashToken(args.token);
  return withTransaction(db, async (tx) => {
    const row = await tx.passwordResetToken.findUnique({
      where: { tokenHash },
      include: { member: { select: { accountId: true } } },
    });
    if (!row || row.member.accountId !== accountId) throw new AppError("UNPROCESSABLE", BAD_RESET_TOKEN_MESSAGE);
    const { count } = await tx.passwordResetToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: args.now } },
      data: { usedAt: args.now },
    });
    if (count === 0) throw new AppError("UNPROCESSABLE", BAD_RESET_TOKEN_MESSAGE);
    const member = await tx.member.update({ where: { id: row.memberId }, data: { passwordHash } });
    // Outstanding links for this member die with this use: a reset is a reset.
    await tx.passwordResetToken.updateMany({
      where: { memberId: row.memberId, usedAt: null },
      data: { usedAt: args.now },
    });
    await revokeMemberSessions(tx, { memberId: row.memberId, now: args.now, exceptSessionId: args.keepSessionId });
    return member;
  });
}

/** The member's metadata object ({} when none). */
export async function getMemberMetadata(db: Db, args: { memberId: number }): Promise<Record<string, unknown>> {
  const member = await db.member.findUnique({ where: { id: args.memberId }, select: { metadata: true } });
  if (!member) throw new AppError("NOT_FOUND", "Member not found.");
  return asObject(member.metadata);
}

/** Replace the member's metadata with `metadata` (validated by ZMemberMetadataInput); returns what is stored. */
export async function setMemberMetadata(
  db: Db,
  args: { memberId: number; metadata: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const member = await db.member.update({
    where: { id: args.memberId },
    data: { metadata: args.metadata as Prisma.InputJsonObject },
    select: { metadata: true },
  });
  return asObject(member.metadata);
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
