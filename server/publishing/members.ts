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
 * - sign-up emits the CONTENT webhook event "member-signup" in its transaction.
 */
import "server-only";

import type { AppPrismaClient, Db } from "../db/client";
import { AppError } from "../errors";
import type { Member, Prisma } from "../generated/prisma/client";
import { getDummyPasswordHash, hashPassword, verifyPassword } from "../auth/password";
import { queueEmail } from "../mail/outbox";
import { emitWebhookEvent } from "../webhooks/deliveries";
import { hashToken, newToken, revokeMemberSessions } from "./member-sessions";
import type { TMemberSignupInput, TMemberWire } from "./members.schema";

/** Functions that open a transaction need the client itself, not a transaction client. */
type RootDb = AppPrismaClient;

export const RESET_TOKEN_TTL_MS = 3600_000;
export const PASSWORD_RESET_KIND = "member.password_reset";

/** The one answer to a password reset request, whether or not the e-mail exists. */
export const FORGOT_PASSWORD_MESSAGE = "If an account exists for this e-mail, we have sent a link to reset its password. It is valid for one hour.";
/** The one answer to failed login, whether the e-mail is unknown or the password wrong. */
export const BAD_CREDENTIALS_MESSAGE = "The e-mail or password is incorrect.";
export const BAD_RESET_TOKEN_MESSAGE = "This password reset link is invalid, expired or already used. Ask for a new one.";

export function memberToWire(member: Omit<Member, "passwordHash"> & { passwordHash?: unknown }): TMemberWire {
  return {
    id: member.id,
    name: member.name,
    username: member.username,
    "first-name": member.firstName,
    "last-name": member.lastName,
    email: member.email,
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

/**
 * Create a member. CONFLICT when the e-mail (any case) or username is taken in the account, also
 * when two sign-ups race (the unique indexes decide). Returns the webhook deliveries to hand to
 * the engine after the commit.
 */
export async function signupMember(
  db: RootDb,
  args: { accountId: number; input: TMemberSignupInput; now: Date },
): Promise<{ member: Member; deliveryIds: string[] }> {
  const { input } = args;
  const name = input.name ?? input.username ?? input.email.split("@")[0]!;
  await assertAvailable(db, args.accountId, input.email, input.username);
  // Hash before the transaction: scrypt takes tens of milliseconds, no lock should wait on it.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const member = await tx.member.create({
        data: {
          accountId: args.accountId,
          name,
          username: input.username ?? null,
          firstName: input["first-name"] || null,
          lastName: input["last-name"] || null,
          email: input.email,
          passwordHash,
          source: "email",
          createdAt: args.now,
        },
      });
      const { deliveryIds } = await emitWebhookEvent(tx, {
        accountId: args.accountId,
        kind: "CONTENT",
        name: "member-signup",
        data: { member: memberToWire(member) },
        occurredAt: args.now,
      });
      return { member, deliveryIds };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw takenError(error);
    throw error;
  }
}

async function assertAvailable(db: Db, accountId: number, email: string, username: string | undefined): Promise<void> {
  const clash = await db.member.findFirst({
    where: { accountId, OR: [{ email }, ...(username ? [{ username }] : [])] },
    select: { email: true },
  });
  if (!clash) return;
  throw clash.email === email
    ? new AppError("CONFLICT", "A member with this e-mail already exists.", { details: [{ field: "body.email", issue: "is already registered" }] })
    : new AppError("CONFLICT", "This username is taken.", { details: [{ field: "body.username", issue: "is already taken" }] });
}

function takenError(error: unknown): AppError {
  const target = JSON.stringify((error as { meta?: unknown }).meta ?? "");
  return target.includes("username")
    ? new AppError("CONFLICT", "This username is taken.", { details: [{ field: "body.username", issue: "is already taken" }] })
    : new AppError("CONFLICT", "A member with this e-mail already exists.", { details: [{ field: "body.email", issue: "is already registered" }] });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * The member `identifier` (e-mail, any case, or username) and `password` name; UNAUTHORIZED with
 * one message otherwise. An unknown identifier still costs one scrypt verification, against a
 * dummy hash, so timing does not tell which e-mails have accounts.
 */
export async function loginMember(db: Db, args: { accountId: number; identifier: string; password: string }): Promise<Member> {
  const identifier = args.identifier.trim();
  const candidates = identifier
    ? await db.member.findMany({
        where: { accountId: args.accountId, OR: [{ email: identifier.toLowerCase() }, { username: identifier }] },
        omit: { passwordHash: false },
        take: 2,
      })
    : [];
  // An e-mail match wins over a username that happens to equal another member's e-mail.
  const member = candidates.find((m) => m.email === identifier.toLowerCase()) ?? candidates[0];
  const ok = await verifyPassword(args.password, member?.passwordHash ?? (await getDummyPasswordHash()));
  if (!member || !ok) throw new AppError("UNAUTHORIZED", BAD_CREDENTIALS_MESSAGE);
  return member;
}

/**
 * A password reset request. When `email` is a member of the account: a single-use token (only
 * its SHA-256 kept) valid for an hour, and the e-mail with the link, in one transaction. Returns
 * nothing either way: the caller answers FORGOT_PASSWORD_MESSAGE.
 */
export async function requestPasswordReset(db: RootDb, args: { accountId: number; email: string; siteUrl: string; publisherName: string; now: Date }): Promise<void> {
  const email = args.email.trim().toLowerCase();
  const member = await db.member.findFirst({ where: { accountId: args.accountId, email }, select: { id: true, name: true, email: true } });
  if (!member) return;
  const token = newToken();
  const link = `${args.siteUrl.replace(/\/+$/, "")}/reset-password?token=${encodeURIComponent(token)}`;
  await db.$transaction(async (tx) => {
    await tx.passwordResetToken.create({
      data: { memberId: member.id, tokenHash: hashToken(token), expiresAt: new Date(args.now.getTime() + RESET_TOKEN_TTL_MS), createdAt: args.now },
    });
    await queueEmail(tx, {
      accountId: args.accountId,
      to: member.email,
      subject: `Reset your ${args.publisherName} password`,
      text: passwordResetText({ name: member.name, publisherName: args.publisherName, link }),
      kind: PASSWORD_RESET_KIND,
      now: args.now,
    });
  });
}

function passwordResetText(args: { name: string; publisherName: string; link: string }): string {
  return [
    `Hello ${args.name},`,
    "",
    `Someone (we hope you) asked to reset the password of your ${args.publisherName} account. To choose a new password, open this link within one hour:`,
    "",
    args.link,
    "",
    "The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  ].join("\n");
}

/**
 * Set a new password with a reset token. The token is consumed by one conditional update (used
 * once, even by parallel requests); unknown, expired or used tokens are UNPROCESSABLE. Every
 * session of the member ends, except `keepSessionId` (the session making the request, if any).
 */
export async function resetPasswordWithToken(
  db: RootDb,
  args: { accountId: number; token: string; password: string; now: Date; keepSessionId?: string },
): Promise<Member> {
  const passwordHash = await hashPassword(args.password);
  const tokenHash = hashToken(args.token);
  return db.$transaction(async (tx) => {
    const row = await tx.passwordResetToken.findUnique({ where: { tokenHash }, include: { member: { select: { accountId: true } } } });
    if (!row || row.member.accountId !== args.accountId) throw new AppError("UNPROCESSABLE", BAD_RESET_TOKEN_MESSAGE);
    const { count } = await tx.passwordResetToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: args.now } }, data: { usedAt: args.now } });
    if (count === 0) throw new AppError("UNPROCESSABLE", BAD_RESET_TOKEN_MESSAGE);
    const member = await tx.member.update({ where: { id: row.memberId }, data: { passwordHash } });
    // Outstanding links for this member die with this use: a reset is a reset.
    await tx.passwordResetToken.updateMany({ where: { memberId: row.memberId, usedAt: null }, data: { usedAt: args.now } });
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
export async function setMemberMetadata(db: Db, args: { memberId: number; metadata: Record<string, unknown> }): Promise<Record<string, unknown>> {
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
