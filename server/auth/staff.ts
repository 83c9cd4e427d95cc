/**
 * Staff management: the changes to a dashboard user that must end their sessions. Each function
 * makes the change, revokes the sessions it invalidates (admin-sessions.ts) and records an audit
 * entry, in one transaction, so no session outlives a committed change. The staff pages and their
 * tRPC procedures call these; nothing else should write a password hash, roles or `disabledAt`.
 *
 *   changeAdminPassword  users change their own (with the current one): their other sessions end;
 *                        an owner sets someone else's: all of that user's sessions end
 *   setAdminRoles        owners only; the user's sessions end (but the actor's own, when it is them)
 *   disableAdminUser     owners only; all of the user's sessions end (this is how someone is
 *                        removed: their name stays on what they did, they can no longer sign in)
 *   enableAdminUser      owners only; a disabled user may sign in again
 *   createAdminUser      owners only; with a password, or invited by e-mail to choose one
 *   listStaff            owners only; the account's users for the Users page
 *
 * Invariant: an account keeps at least one active (not disabled) owner. The last one can neither
 * lose the OWNER role nor be disabled. Changes to an account's staff take a per-account advisory
 * lock, so two owners demoting each other at once cannot both pass the check.
 */
import "server-only";

import { randomBytes } from "node:crypto";

import { recordAudit, type RecordAuditInput } from "../audit/audit-log";
import type { Db } from "../db/client";
import { isUniqueClash, withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { StaffActor } from "./actor";
import { revokeAdminSessionsOfUser } from "./admin-sessions";
import { hashPassword, verifyPassword } from "./password";
import { hasAnyRole, type AdminRole } from "./roles";
import { issueAdminInvitation } from "./staff-passwords";
import {
  ZChangeAdminPasswordInput,
  ZCreateAdminUserInput,
  ZDisableAdminUserInput,
  ZEnableAdminUserInput,
  ZSetAdminRolesInput,
  type TChangeAdminPasswordInput,
  type TCreateAdminUserInput,
  type TDisableAdminUserInput,
  type TEnableAdminUserInput,
  type TSetAdminRolesInput,
  type TStaffMemberView,
} from "./staff.schema";

type Common = { actor: StaffActor; now?: Date; ip?: string | null };

type StaffChangeResult = { userId: string; changed: boolean; revokedSessions: number };

/**
 * Set a user's password. Users changing their own must give the current one (UNPROCESSABLE
 * otherwise); only an owner may set another user's. Sessions end as the header describes.
 */
export async function changeAdminPassword(
  db: Db,
  args: Common & TChangeAdminPasswordInput,
): Promise<StaffChangeResult> {
  const input = ZChangeAdminPasswordInput.parse(args);
  const { actor } = args;
  const now = args.now ?? new Date();
  const isSelf = input.userId === actor.id;
  if (!isSelf) assertOwner(actor);

  const target = await db.adminUser.findFirst({
    where: { id: input.userId, accountId: actor.accountId },
    select: { id: true, passwordHash: true },
  });
  if (!target) throw notFound();
  if (isSelf && !(await verifyPassword(input.currentPassword ?? "", target.passwordHash))) {
    throw new AppError("UNPROCESSABLE", "The current password is not right.", {
      details: [{ field: "currentPassword", issue: "is not your current password" }],
    });
  }
  // Hashing is slow on purpose: do it before the transaction, which then stays short.
  const passwordHash = await hashPassword(input.newPassword);

  return withTransaction(db, async (tx) => {
    await tx.adminUser.update({ where: { id: target.id }, data: { passwordHash }, select: { id: true } });
    const revokedSessions = await revokeAdminSessionsOfUser(tx, {
      userId: target.id,
      exceptSessionId: isSelf ? actor.sessionId : undefined,
      now,
    });
    await recordAudit(tx, {
      actor,
      action: "admin_user.password_change",
      targetType: "admin_user",
      targetId: target.id,
      metadata: { self: isSelf, revokedSessions },
      ip: args.ip,
      now,
    });
    return { userId: target.id, changed: true, revokedSessions };
  });
}

/** Give a user exactly these roles (owners only). Unchanged roles change nothing and end no session. */
export async function setAdminRoles(db: Db, args: Common & TSetAdminRolesInput): Promise<StaffChangeResult> {
  const input = ZSetAdminRolesInput.parse(args);
  return changeByOwner(db, args, input.userId, async (tx, target, now) => {
    if (sameRoles(target.roles, input.roles)) return null;
    if (target.roles.includes("OWNER") && !input.roles.includes("OWNER") && !target.disabledAt) {
      await assertAnotherActiveOwner(tx, args.actor.accountId, target.id, {
        field: "roles",
        message: "An account needs an owner: make another active user an owner before removing this one's Owner role.",
      });
    }
    await tx.adminUser.update({ where: { id: target.id }, data: { roles: input.roles }, select: { id: true } });
    const revokedSessions = await revokeAdminSessionsOfUser(tx, {
      userId: target.id,
      exceptSessionId: target.id === args.actor.id ? args.actor.sessionId : undefined,
      now,
    });
    return {
      action: "admin_user.roles_change",
      revokedSessions,
      metadata: { from: target.roles, to: input.roles, revokedSessions },
    };
  });
}

/** Disable a user (owners only): they cannot sign in, and every session of theirs ends. Twice is a no-op. */
export async function disableAdminUser(db: Db, args: Common & TDisableAdminUserInput): Promise<StaffChangeResult> {
  const input = ZDisableAdminUserInput.parse(args);
  return changeByOwner(db, args, input.userId, async (tx, target, now) => {
    if (target.disabledAt) return null;
    if (target.roles.includes("OWNER")) {
      await assertAnotherActiveOwner(tx, args.actor.accountId, target.id, {
        field: "userId",
        message: "An account needs an owner: make another active user an owner before disabling this one.",
      });
    }
    await tx.adminUser.update({ where: { id: target.id }, data: { disabledAt: now }, select: { id: true } });
    const revokedSessions = await revokeAdminSessionsOfUser(tx, { userId: target.id, now });
    return { action: "admin_user.disable", revokedSessions, metadata: { revokedSessions } };
  });
}

type StaffMember = Awaited<ReturnType<typeof findStaffMember>>;

/**
 * An owner's change to a user of their account, in one transaction under the account's staff
 * lock. `change` returns null when there is nothing to change (nothing is written), or makes the
 * change, ends the sessions it invalidates and says what to record in the audit log.
 */
async function changeByOwner(
  db: Db,
  args: Common,
  userId: string,
  change: (
    tx: Db,
    target: StaffMember,
    now: Date,
  ) => Promise<(Pick<RecordAuditInput, "action" | "metadata"> & { revokedSessions: number }) | null>,
): Promise<StaffChangeResult> {
  const { actor } = args;
  const now = args.now ?? new Date();
  assertOwner(actor);

  return withTransaction(db, async (tx) => {
    await lockAccountStaff(tx, actor.accountId);
    const target = await findStaffMember(tx, actor.accountId, userId);
    const changed = await change(tx, target, now);
    if (!changed) return { userId: target.id, changed: false, revokedSessions: 0 };
    const { action, revokedSessions, metadata } = changed;
    await recordAudit(tx, { actor, action, targetType: "admin_user", targetId: target.id, metadata, ip: args.ip, now });
    return { userId: target.id, changed: true, revokedSessions };
  });
}

/** Let a disabled user sign in again (owners only). Enabling an active user is a no-op. */
export async function enableAdminUser(db: Db, args: Common & TEnableAdminUserInput): Promise<StaffChangeResult> {
  const input = ZEnableAdminUserInput.parse(args);
  const { actor } = args;
  const now = args.now ?? new Date();
  assertOwner(actor);
  return withTransaction(db, async (tx) => {
    const target = await findStaffMember(tx, actor.accountId, input.userId);
    if (!target.disabledAt) return { userId: target.id, changed: false, revokedSessions: 0 };
    await tx.adminUser.update({ where: { id: target.id }, data: { disabledAt: null }, select: { id: true } });
    await recordAudit(tx, {
      actor,
      action: "admin_user.enable",
      targetType: "admin_user",
      targetId: target.id,
      ip: args.ip,
      now,
    });
    return { userId: target.id, changed: true, revokedSessions: 0 };
  });
}

/**
 * Add a user to the actor's account (owners only). With `password` they can sign in at once;
 * without, an invitation e-mail (mail outbox) carries a link to choose one. CONFLICT when the
 * e-mail already has a dashboard account (e-mails are unique across the instance).
 */
export async function createAdminUser(
  db: Db,
  args: Common & TCreateAdminUserInput & { appUrl: string },
): Promise<{ user: TStaffMemberView; invited: boolean }> {
  const input = ZCreateAdminUserInput.parse(args);
  const { actor } = args;
  const now = args.now ?? new Date();
  assertOwner(actor);
  // An invited user gets a password nobody knows until they choose theirs.
  const passwordHash = await hashPassword(input.password ?? randomBytes(32).toString("base64url"));
  try {
    return await withTransaction(db, async (tx) => {
      const account = await tx.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { name: true } });
      const user = await tx.adminUser.create({
        data: {
          accountId: actor.accountId,
          name: input.name,
          email: input.email,
          roles: input.roles,
          passwordHash,
          createdAt: now,
        },
        select: STAFF_SELECT,
      });
      const invited = input.password === undefined;
      if (invited) await issueAdminInvitation(tx, { user, accountName: account.name, appUrl: args.appUrl, now });
      await recordAudit(tx, {
        actor,
        action: "admin_user.create",
        targetType: "admin_user",
        targetId: user.id,
        metadata: { roles: input.roles, invited },
        ip: args.ip,
        now,
      });
      return { user: toStaffView({ ...user, resetTokens: invited ? [{ id: "invite" }] : [] }), invited };
    });
  } catch (error) {
    if (isUniqueClash(error)) {
      throw new AppError("CONFLICT", "This e-mail already has a dashboard account.", {
        details: [{ field: "email", issue: "already has a dashboard account" }],
      });
    }
    throw error;
  }
}

/** The account's users (owners only): active ones first by name, then disabled ones. */
export async function listStaff(db: Db, args: { actor: StaffActor; now?: Date }): Promise<TStaffMemberView[]> {
  assertOwner(args.actor);
  const now = args.now ?? new Date();
  const users = await db.adminUser.findMany({
    where: { accountId: args.actor.accountId },
    select: {
      ...STAFF_SELECT,
      resetTokens: {
        where: { purpose: "invite", usedAt: null, expiresAt: { gt: now } },
        select: { id: true },
        take: 1,
      },
    },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
  const views = users.map(toStaffView);
  return [...views.filter((u) => !u.disabledAt), ...views.filter((u) => u.disabledAt)];
}

const STAFF_SELECT = {
  id: true,
  accountId: true,
  name: true,
  email: true,
  roles: true,
  disabledAt: true,
  lastLoginAt: true,
  createdAt: true,
} as const;

function toStaffView(user: {
  id: string;
  name: string;
  email: string;
  roles: AdminRole[];
  disabledAt: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
  resetTokens: { id: string }[];
}): TStaffMemberView {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    roles: user.roles,
    disabledAt: user.disabledAt,
    lastLoginAt: user.lastLoginAt,
    createdAt: user.createdAt,
    invitePending: user.lastLoginAt === null && user.resetTokens.length > 0,
  };
}

// ─── helpers ─────────────────────────────────────────────────────────────────────────────────

function assertOwner(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["OWNER"])) throw new AppError("FORBIDDEN", "Only an owner can manage users.");
}

const notFound = () => new AppError("NOT_FOUND", "No such user in this account.");

/** A user of the actor's account; any other (another account's, or none) is NOT_FOUND. */
async function findStaffMember(db: Db, accountId: number, userId: string) {
  const user = await db.adminUser.findFirst({
    where: { id: userId, accountId },
    select: { id: true, roles: true, disabledAt: true },
  });
  if (!user) throw notFound();
  return user;
}

async function assertAnotherActiveOwner(
  db: Db,
  accountId: number,
  userId: string,
  error: { field: string; message: string },
): Promise<void> {
  const others = await db.adminUser.count({
    where: { accountId, id: { not: userId }, disabledAt: null, roles: { has: "OWNER" } },
  });
  if (others === 0) {
    throw new AppError("UNPROCESSABLE", error.message, {
      details: [{ field: error.field, issue: "would leave the account without an active owner" }],
    });
  }
}

const sameRoles = (a: readonly AdminRole[], b: readonly AdminRole[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/** Namespace of the per-account staff lock (first key of pg_advisory_xact_lock(int, int); the account id is the second). */
const STAFF_LOCK = 0x4d410001;

/** Serialise changes to an account's staff until the transaction ends (see the header's invariant). */
async function lockAccountStaff(tx: Db, accountId: number): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${STAFF_LOCK}::int, ${accountId}::int)) AS locked`;
}
