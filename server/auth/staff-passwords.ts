/**
 * Dashboard password links: a single-use token e-mailed through the mail outbox, opened on the
 * dashboard's own page `<APP_URL>/admin/reset-password?token=<token>`.
 *
 *   requestAdminPasswordReset  "Forgot password?" on the sign-in page: the same answer whether or
 *                              not the e-mail is a (non-disabled) user's; throttled per e-mail
 *   sendAdminPasswordReset     an owner sends one of their users a reset link (audited)
 *   issueAdminInvitation       a new user's invitation (staff.ts createAdminUser, same transaction)
 *   resetAdminPassword         the page posts the token and the new password: the password is set,
 *                              every outstanding link of the user dies, every session ends
 *
 * Rules borrowed from the member reset (server/members/members.ts): only the token's SHA-256 is
 * stored; the token is consumed by one conditional update, so two parallel uses give one success;
 * unknown, expired and used tokens get one message.
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { queueEmail } from "../mail/outbox";
import { checkRateLimit, rateLimitHeaders } from "../rate-limit";
import { getRateLimitStore } from "../rate-limit/store";
import { hashToken, newToken } from "../security/secret-tokens";
import { staffActor, type StaffActor } from "./actor";
import { revokeAdminSessionsOfUser } from "./admin-sessions";
import { hashPassword } from "./password";
import { hasAnyRole } from "./roles";
import {
  ADMIN_BAD_RESET_TOKEN_MESSAGE,
  ZAdminForgotPasswordInput,
  ZAdminResetPasswordInput,
  ZSendAdminPasswordResetInput,
  type TAdminForgotPasswordInput,
  type TAdminResetPasswordInput,
  type TSendAdminPasswordResetInput,
} from "./staff.schema";

/** A reset link works for an hour; an invitation for three days (people are not always at their desk). */
const ADMIN_RESET_TTL_MS = 60 * 60 * 1000;
const ADMIN_INVITE_TTL_MS = 72 * 60 * 60 * 1000;

const ADMIN_PASSWORD_RESET_KIND = "admin.password_reset";
const ADMIN_INVITATION_KIND = "admin.invitation";

/** Per e-mail: at most 5 reset mails an hour, whoever asks, so the form cannot flood an inbox. */
export const ADMIN_FORGOT_PASSWORD_LIMIT = { name: "admin.forgot-password.email", limit: 5, windowSeconds: 3600 };

/** Where the links lead: the dashboard's reset page. */
function adminResetLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}/admin/reset-password?token=${encodeURIComponent(token)}`;
}

type Purpose = "reset" | "invite";

/** What a reset link needs of its user (issueLink), and whether they may have one (disabledAt). */
const LINK_USER_SELECT = {
  id: true,
  name: true,
  email: true,
  accountId: true,
  disabledAt: true,
  account: { select: { name: true } },
} satisfies Prisma.AdminUserSelect;

/** Write a token and its e-mail, in `tx` (the caller's transaction). Returns nothing secret. */
async function issueLink(
  tx: Db,
  args: {
    user: { id: string; name: string; email: string; accountId: number };
    accountName: string;
    purpose: Purpose;
    appUrl: string;
    now: Date;
  },
): Promise<{ expiresAt: Date }> {
  const { user, now } = args;
  const token = newToken();
  const ttl = args.purpose === "invite" ? ADMIN_INVITE_TTL_MS : ADMIN_RESET_TTL_MS;
  const expiresAt = new Date(now.getTime() + ttl);
  await tx.adminPasswordResetToken.create({
    data: { userId: user.id, tokenHash: hashToken(token), purpose: args.purpose, expiresAt, createdAt: now },
  });
  const link = adminResetLink(args.appUrl, token);
  await queueEmail(tx, {
    accountId: user.accountId,
    to: user.email,
    ...(args.purpose === "invite"
      ? {
          subject: `You are invited to ${theDashboardOf(args.accountName)}`,
          text: invitationText({ name: user.name, accountName: args.accountName, link }),
          kind: ADMIN_INVITATION_KIND,
        }
      : {
          subject: `Reset your dashboard password for ${args.accountName}`,
          text: resetText({ name: user.name, accountName: args.accountName, link }),
          kind: ADMIN_PASSWORD_RESET_KIND,
        }),
    now,
  });
  return { expiresAt };
}

/** The invitation of a user just created (staff.ts), in its transaction. */
export function issueAdminInvitation(
  tx: Db,
  args: {
    user: { id: string; name: string; email: string; accountId: number };
    accountName: string;
    appUrl: string;
    now: Date;
  },
): Promise<{ expiresAt: Date }> {
  return issueLink(tx, { ...args, purpose: "invite" });
}

/**
 * "Forgot password?": when `email` is an active dashboard user's, a reset link goes out by e-mail.
 * Returns nothing either way (the caller answers ADMIN_FORGOT_PASSWORD_MESSAGE); RATE_LIMITED past
 * the per-e-mail limit, which counts every request, known e-mail or not.
 */
export async function requestAdminPasswordReset(
  db: Db,
  args: TAdminForgotPasswordInput & { appUrl: string; now?: Date },
): Promise<void> {
  const now = args.now ?? new Date();
  const parsed = ZAdminForgotPasswordInput.safeParse(args);
  const email = parsed.success ? parsed.data.email : "";
  const limit = await checkRateLimit(await getRateLimitStore(), ADMIN_FORGOT_PASSWORD_LIMIT, email || "-", now);
  if (!limit.allowed) {
    throw new AppError("RATE_LIMITED", "Too many password reset requests for this e-mail. Try again later.", {
      headers: rateLimitHeaders(limit, now),
    });
  }
  if (!email) return;
  const user = await db.adminUser.findUnique({
    where: { email },
    select: LINK_USER_SELECT,
  });
  // A disabled user cannot sign in: a link would only tell them they still have an account.
  if (!user || user.disabledAt) return;
  await withTransaction(db, async (tx) => {
    await issueLink(tx, { user, accountName: user.account.name, purpose: "reset", appUrl: args.appUrl, now });
    await recordAudit(tx, {
      actor: staffActor({ id: user.id, accountId: user.accountId, roles: [] }),
      action: "admin_user.password_reset_request",
      targetType: "admin_user",
      targetId: user.id,
      metadata: { by: "self" },
      now,
    });
  });
}

/** An owner e-mails one of their users a reset link. Disabled users are UNPROCESSABLE (enable them first). */
export async function sendAdminPasswordReset(
  db: Db,
  args: TSendAdminPasswordResetInput & { actor: StaffActor; appUrl: string; now?: Date; ip?: string | null },
): Promise<{ userId: string; expiresAt: Date }> {
  const { userId } = ZSendAdminPasswordResetInput.parse(args);
  const { actor } = args;
  const now = args.now ?? new Date();
  if (!hasAnyRole(actor.roles, ["OWNER"])) throw new AppError("FORBIDDEN", "Only an owner can manage users.");
  const user = await db.adminUser.findFirst({
    where: { id: userId, accountId: actor.accountId },
    select: LINK_USER_SELECT,
  });
  if (!user) throw new AppError("NOT_FOUND", "No such user in this account.");
  if (user.disabledAt) {
    throw new AppError("UNPROCESSABLE", "This user is disabled: enable them before sending a password reset.", {
      details: [{ field: "userId", issue: "is disabled" }],
    });
  }
  return withTransaction(db, async (tx) => {
    const { expiresAt } = await issueLink(tx, {
      user,
      accountName: user.account.name,
      purpose: "reset",
      appUrl: args.appUrl,
      now,
    });
    await recordAudit(tx, {
      actor,
      action: "admin_user.password_reset_request",
      targetType: "admin_user",
      targetId: user.id,
      metadata: { by: "owner" },
      ip: args.ip,
      now,
    });
    return { userId: user.id, expiresAt };
  });
}

/**
 * Set a password with a link's token. UNPROCESSABLE (one message) for unknown, expired and used
 * tokens. Every other link of the user is voided and every session of theirs ends; signing in is
 * left to the sign-in page. A disabled user's password changes, but they still cannot sign in.
 */
export async function resetAdminPassword(
  db: Db,
  args: TAdminResetPasswordInput & { now?: Date; ip?: string | null },
): Promise<{ userId: string; email: string }> {
  const input = ZAdminResetPasswordInput.parse(args);
  const now = args.now ?? new Date();
  const passwordHash = await hashPassword(input.password);
  const tokenHash = hashToken(input.token);
  return withTransaction(db, async (tx) => {
    const row = await tx.adminPasswordResetToken.findUnique({
      where: { tokenHash },
      select: { id: true, purpose: true, user: { select: { id: true, email: true, accountId: true, roles: true } } },
    });
    if (!row) throw badToken();
    const { count } = await tx.adminPasswordResetToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw badToken();
    const { user } = row;
    await tx.adminUser.update({ where: { id: user.id }, data: { passwordHash }, select: { id: true } });
    await tx.adminPasswordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    const revokedSessions = await revokeAdminSessionsOfUser(tx, { userId: user.id, now });
    await recordAudit(tx, {
      actor: staffActor(user),
      action: row.purpose === "invite" ? "admin_user.invitation_accept" : "admin_user.password_reset",
      targetType: "admin_user",
      targetId: user.id,
      metadata: { revokedSessions },
      ip: args.ip,
      now,
    });
    return { userId: user.id, email: user.email };
  });
}

const badToken = () =>
  new AppError("UNPROCESSABLE", ADMIN_BAD_RESET_TOKEN_MESSAGE, {
    details: [{ field: "token", issue: "is invalid, expired or already used" }],
  });

function resetText(args: { name: string; accountName: string; link: string }): string {
  return [
    `Hello ${args.name},`,
    "",
    `Someone (we hope you, or an owner of ${args.accountName}) asked to reset your dashboard password. To choose a new one, open this link within one hour:`,
    "",
    args.link,
    "",
    "The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  ].join("\n");
}

/**
 * "the Courier dashboard", and for a name that has its own article "The Daily Masthead dashboard"
 * (never "the The Daily Masthead dashboard").
 */
export function theDashboardOf(accountName: string): string {
  return /^the\s/i.test(accountName.trim()) ? `${accountName.trim()} dashboard` : `the ${accountName.trim()} dashboard`;
}

function invitationText(args: { name: string; accountName: string; link: string }): string {
  return [
    `Hello ${args.name},`,
    "",
    `You have been given access to ${theDashboardOf(args.accountName)} on Masthead. Choose your password here (the link works once, for three days):`,
    "",
    args.link,
    "",
    "Then sign in with this e-mail address and that password.",
  ].join("\n");
}
