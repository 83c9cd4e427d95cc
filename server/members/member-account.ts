/**
 * A member's account calls from @quintype/bridgekeeper-js (docs/engagement.md, "Member account
 * calls (bridgekeeper)"): one-time codes by e-mail, changing e-mail / phone / name with a code,
 * the profile, a password reset with a code, and e-mail verification links.
 *
 * One-time codes (OTP):
 * - 6 digits from crypto.randomInt; only SHA-256(row id, code) is stored; compared in constant time;
 * - valid 10 minutes, single use, at most 5 wrong tries; a new code for an address ends the older
 *   ones (only the latest works);
 * - sending is limited per address (5 an hour) and per IP (30 an hour): 429 with Retry-After;
 * - mailed through the outbox (queueEmail in the code's transaction), in the member's locale
 *   (server/i18n/reader-mail.ts); never logged by Masthead;
 * - a code is checked and used up in its own committed writes, so a wrong try counts even when the
 *   request then fails, and two requests with one code: exactly one succeeds (a conditional update).
 * Answers never tell whether an address has an account (as forgot-password).
 */
import "server-only";

import { createHash, randomInt, randomUUID, timingSafeEqual } from "node:crypto";

import { hashPassword } from "../auth/password";
import type { Db } from "../db/client";
import { isUniqueClash, withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { readerMail, renderSimpleMail } from "../i18n/reader-mail";
import { queueEmail } from "../mail/outbox";
import type { Publisher } from "../publishing/publisher";
import type { RateLimitRule } from "../rate-limit";
import { addressBucket } from "../rate-limit/address";
import { assertWithinRateLimits } from "../rate-limit/assert";
import { hashToken, newToken } from "../security/secret-tokens";
import { isPlaceholderEmail } from "./identities";
import type { TUpdateProfileInput, TUpdateWithOtpInput } from "./member-account.schema";
import type { MemberRecord } from "./members";
import { revokeMemberSessions } from "./sessions";

const OTP_TTL_MS = 10 * 60_000;
const OTP_MAX_ATTEMPTS = 5;
const VERIFY_LINK_TTL_MS = 24 * 3600_000;
export const OTP_MAIL_KIND = "member.otp";
export const VERIFY_MAIL_KIND = "member.verify_email";

/** Limits on sending codes and links, per address and per IP. */
const SEND_LIMITS = {
  perEmail: { name: "member.otp.email", limit: 5, windowSeconds: 3600 },
  perIp: { name: "member.otp.ip", limit: 30, windowSeconds: 3600 },
} satisfies Record<string, RateLimitRule>;

/** The one answer to send-otp. */
export const OTP_SENT_MESSAGE = "If this e-mail can receive a code, we have sent one. It is valid for 10 minutes.";
const BAD_OTP_MESSAGE = "The code is wrong, expired or already used. Ask for a new one.";
export const VERIFICATION_SENT_MESSAGE =
  "If this e-mail belongs to an account that is not verified yet, we have sent a verification link.";
const BAD_VERIFY_LINK_MESSAGE = "This verification link is invalid, expired or already used.";

const hashOtp = (id: string, code: string) => createHash("sha256").update(`${id}:${code}`, "utf8").digest();

async function throttleSend(args: { accountId: number; email: string; ip: string; now: Date }): Promise<void> {
  await assertWithinRateLimits(
    [
      [SEND_LIMITS.perIp, `${args.accountId}:${addressBucket(args.ip)}`],
      [SEND_LIMITS.perEmail, `${args.accountId}:${args.email}`],
    ],
    "Too many codes or links asked for. Try again later.",
    args.now,
  );
}

// ─── One-time codes ──────────────────────────────────────────────────────────────────────────

/**
 * POST send-otp. `member` is the signed-in member (null when none). Where the code goes:
 * signed in, `email` left out → the member's own address; signed in, another `email` → that
 * address, unless another member holds it (nothing sent); not signed in → `email`, only when a
 * member holds it. The caller answers OTP_SENT_MESSAGE in every case.
 */
export async function sendOtp(
  db: Db,
  args: { publisher: Publisher; member: MemberRecord | null; email?: string; ip: string; now: Date },
): Promise<void> {
  const { publisher, member, now } = args;
  const accountId = publisher.accountId;
  const email = args.email ?? member?.email;
  if (!email) {
    throw new AppError("BAD_REQUEST", "Send the e-mail to send the code to, or log in.", {
      details: [{ field: "body.email", issue: "is required when not logged in" }],
    });
  }
  await throttleSend({ accountId, email, ip: args.ip, now });
  if (isPlaceholderEmail(email)) return;
  const holder = await db.member.findUnique({
    where: { accountId_email: { accountId, email } },
    select: { id: true, name: true },
  });
  const deliver = member ? !holder || holder.id === member.id : Boolean(holder);
  if (!deliver) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await withTransaction(db, async (tx) => {
    // Only the newest code for an address works.
    await tx.memberOtp.updateMany({ where: { accountId, email, usedAt: null }, data: { usedAt: now } });
    const id = randomUUID();
    await tx.memberOtp.create({
      data: {
        id,
        accountId,
        email,
        codeHash: hashOtp(id, code).toString("hex"),
        expiresAt: new Date(now.getTime() + OTP_TTL_MS),
        createdAt: now,
      },
    });
    const mail = await readerMail(tx, accountId, member?.id ?? holder?.id ?? null);
    await queueEmail(tx, {
      accountId,
      to: email,
      ...renderSimpleMail(mail, {
        subject: mail.t("otpSubject", { code, publisher: publisher.name }),
        name: member?.name ?? holder?.name,
        blocks: [{ p: mail.t("otpIntro", { publisher: publisher.name }) }, { code }, { p: mail.t("otpValidity") }],
      }),
      kind: OTP_MAIL_KIND,
      now,
    });
  });
}

/**
 * Use up the live code sent to `email`: UNPROCESSABLE (BAD_OTP_MESSAGE) when there is none, it is
 * wrong (the try is counted), expired, used or out of tries. Commits on its own (not inside a
 * caller's transaction: a wrong try must stay counted when the caller then fails).
 */
async function consumeOtp(db: Db, args: { accountId: number; email: string; code: string; now: Date }) {
  const { accountId, email, now } = args;
  const row = await db.memberOtp.findFirst({
    where: { accountId, email, usedAt: null, expiresAt: { gt: now }, attempts: { lt: OTP_MAX_ATTEMPTS } },
    orderBy: { createdAt: "desc" },
  });
  if (!row) throw new AppError("UNPROCESSABLE", BAD_OTP_MESSAGE);
  const stored = Buffer.from(row.codeHash, "hex");
  const given = hashOtp(row.id, args.code);
  const live = { id: row.id, usedAt: null, expiresAt: { gt: now }, attempts: { lt: OTP_MAX_ATTEMPTS } };
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) {
    await db.memberOtp.updateMany({ where: live, data: { attempts: { increment: 1 } } });
    throw new AppError("UNPROCESSABLE", BAD_OTP_MESSAGE);
  }
  // One conditional update: of two requests with the same code, one changes the row.
  const { count } = await db.memberOtp.updateMany({ where: live, data: { usedAt: now } });
  if (count === 0) throw new AppError("UNPROCESSABLE", BAD_OTP_MESSAGE);
}

/**
 * POST update-with-otp: change e-mail, phone number or name with a code. The code must have gone
 * to the new e-mail when the e-mail changes (it proves the member holds it; the e-mail is then
 * verified), else to the member's own address. CONFLICT when another member has the new e-mail.
 */
export async function updateWithOtp(
  db: Db,
  args: { member: MemberRecord; input: TUpdateWithOtpInput; now: Date },
): Promise<MemberRecord> {
  const { member, input, now } = args;
  const newEmail = input.user.email && input.user.email !== member.email ? input.user.email : null;
  if (newEmail) {
    const taken = await db.member.findUnique({
      where: { accountId_email: { accountId: member.accountId, email: newEmail } },
      select: { id: true },
    });
    if (taken) throw emailTaken();
  }
  await consumeOtp(db, { accountId: member.accountId, email: newEmail ?? member.email, code: input.otp, now });
  try {
    const updated = await db.member.update({
      where: { id: member.id },
      data: {
        // The code went to the address: the member holds it.
        emailVerified: true,
        ...(newEmail ? { email: newEmail } : {}),
        ...(input.user["phone-number"] !== undefined ? { phoneNumber: input.user["phone-number"] } : {}),
        ...(input.user.name ? { name: input.user.name } : {}),
      },
    });
    return updated;
  } catch (error) {
    if (isUniqueClash(error)) throw emailTaken();
    throw error;
  }
}

const emailTaken = () =>
  new AppError("CONFLICT", "Another account uses this e-mail.", {
    details: [{ field: "body.user.email", issue: "is already registered" }],
  });

/**
 * POST reset-password {email, otp, "new-password"}: a new password with a code sent to the
 * member's e-mail. Every other session ends (as the token reset does); the e-mail is verified.
 * An unknown e-mail answers like a wrong code.
 */
export async function resetPasswordWithOtp(
  db: Db,
  args: { publisher: Publisher; email: string; otp: string; password: string; now: Date; keepSessionId?: string },
): Promise<void> {
  const { now } = args;
  const accountId = args.publisher.accountId;
  const passwordHash = await hashPassword(args.password);
  await consumeOtp(db, { accountId, email: args.email, code: args.otp, now });
  await withTransaction(db, async (tx) => {
    const member = await tx.member.findUnique({ where: { accountId_email: { accountId, email: args.email } } });
    if (!member) throw new AppError("UNPROCESSABLE", BAD_OTP_MESSAGE);
    await tx.member.update({ where: { id: member.id }, data: { passwordHash, emailVerified: true } });
    await tx.passwordResetToken.updateMany({ where: { memberId: member.id, usedAt: null }, data: { usedAt: now } });
    const keep = args.keepSessionId;
    await revokeMemberSessions(tx, { memberId: member.id, now, exceptSessionId: keep });
  });
}

// ─── Profile ─────────────────────────────────────────────────────────────────────────────────

/** POST profile: the fields given; the e-mail only through update-with-otp (UNPROCESSABLE). */
export async function updateMemberProfile(
  db: Db,
  args: { member: MemberRecord; input: TUpdateProfileInput },
): Promise<MemberRecord> {
  const { member, input } = args;
  if (input.email !== undefined && input.email.trim().toLowerCase() !== member.email) {
    throw new AppError("UNPROCESSABLE", "Change the e-mail with a code (send-otp, then update-with-otp).", {
      details: [{ field: "body.email", issue: "cannot be changed here" }],
    });
  }
  const updated = await db.member.update({
    where: { id: member.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input["first-name"] !== undefined ? { firstName: input["first-name"] } : {}),
      ...(input["last-name"] !== undefined ? { lastName: input["last-name"] } : {}),
      ...(input.bio !== undefined ? { bio: input.bio } : {}),
      ...(input["avatar-url"] !== undefined ? { avatarUrl: input["avatar-url"] } : {}),
      ...(input["avatar-s3-key"] !== undefined ? { avatarS3Key: input["avatar-s3-key"] } : {}),
      ...(input["twitter-handle"] !== undefined ? { twitterHandle: input["twitter-handle"] } : {}),
      ...(input["communication-email"] !== undefined ? { communicationEmail: input["communication-email"] } : {}),
    },
  });
  return updated;
}

// ─── Verification links ──────────────────────────────────────────────────────────────────────

/** Whether `url` is an http(s) URL on one of the publication's hosts. */
export function isPublicationUrl(url: string, publisher: Publisher): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === "https:" || parsed.protocol === "http:") &&
      !parsed.username &&
      !parsed.password &&
      publisher.publicationHosts.includes(parsed.hostname.toLowerCase())
    );
  } catch {
    return false;
  }
}

/**
 * POST send-verification-link {email, "redirect-url"}: when `email` is an unverified member's, a
 * link (single use, 24 hours) to GET /api/auth/v1/users/verify-email on the publication's site.
 * The redirect must be on the publication's hosts (BAD_REQUEST otherwise, checked before anything
 * else, so the answer tells nothing about the e-mail).
 */
export async function sendVerificationLink(
  db: Db,
  args: { publisher: Publisher; email: string; redirectUrl?: string; ip: string; now: Date },
): Promise<void> {
  const { publisher, email, redirectUrl, now } = args;
  const accountId = publisher.accountId;
  if (redirectUrl && !isPublicationUrl(redirectUrl, publisher)) {
    throw new AppError("BAD_REQUEST", "The redirect URL must be on the publication's site.", {
      details: [{ field: "body.redirect-url", issue: "is not on the publication's hosts" }],
    });
  }
  await throttleSend({ accountId, email, ip: args.ip, now });
  const member = await db.member.findUnique({ where: { accountId_email: { accountId, email } } });
  if (!member || member.emailVerified) return;
  const token = newToken();
  const link = `${publisher.siteUrl}/api/auth/v1/users/verify-email?token=${encodeURIComponent(token)}`;
  await withTransaction(db, async (tx) => {
    await tx.emailVerificationToken.create({
      data: {
        memberId: member.id,
        email,
        tokenHash: hashToken(token),
        redirectUrl: redirectUrl ?? null,
        expiresAt: new Date(now.getTime() + VERIFY_LINK_TTL_MS),
        createdAt: now,
      },
    });
    const mail = await readerMail(tx, accountId, member.id);
    await queueEmail(tx, {
      accountId,
      to: email,
      ...renderSimpleMail(mail, {
        subject: mail.t("verifySubject", { publisher: publisher.name }),
        name: member.name,
        blocks: [
          { p: mail.t("verifyIntro", { publisher: publisher.name }) },
          { link, label: mail.t("verifyButton") },
          { p: mail.t("ignoreIfNotAsked") },
        ],
      }),
      kind: VERIFY_MAIL_KIND,
      now,
    });
  });
}

/**
 * The link's GET: use the token up (once, by a conditional update) and mark the e-mail verified
 * when it is still the member's. Answers where to send the reader: the stored redirect when it is
 * (still) on the publication's hosts, else null. UNPROCESSABLE for a bad, expired or used token.
 */
export async function verifyEmail(
  db: Db,
  args: { publisher: Publisher; token: string; now: Date },
): Promise<{ redirectUrl: string | null }> {
  const { publisher, now } = args;
  return withTransaction(db, async (tx) => {
    const row = await tx.emailVerificationToken.findUnique({
      where: { tokenHash: hashToken(args.token) },
      include: { member: { select: { accountId: true, email: true } } },
    });
    if (!row || row.member.accountId !== publisher.accountId) {
      throw new AppError("UNPROCESSABLE", BAD_VERIFY_LINK_MESSAGE);
    }
    const { count } = await tx.emailVerificationToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw new AppError("UNPROCESSABLE", BAD_VERIFY_LINK_MESSAGE);
    if (row.member.email === row.email) {
      await tx.member.update({ where: { id: row.memberId }, data: { emailVerified: true } });
    }
    const redirect = row.redirectUrl && isPublicationUrl(row.redirectUrl, publisher) ? row.redirectUrl : null;
    return { redirectUrl: redirect };
  });
}
