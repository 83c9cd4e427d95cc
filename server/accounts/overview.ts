/**
 * The dashboard's overview: the account, its team, and recent activity. Everyone signed in sees
 * the account and team counts; the account's audit trail is for owners (as the audit log is), so
 * other roles see only their own recent activity.
 */
import "server-only";

import { listAuditLog } from "../audit/audit-log";
import type { TAuditLogEntry } from "../audit/audit-log.schema";
import type { StaffActor } from "../auth/actor";
import { ADMIN_ROLES, hasAnyRole, type AdminRole } from "../auth/roles";
import type { Db } from "../db/client";

type DashboardOverview = {
  account: { id: number; name: string; slug: string; domain: string | null; createdAt: Date };
  adminUsers: { active: number; disabled: number; byRole: Record<AdminRole, number> };
  activity: { scope: "account" | "own"; entries: TAuditLogEntry[] };
};

export async function getDashboardOverview(
  db: Db,
  args: { actor: StaffActor; activityLimit?: number },
): Promise<DashboardOverview> {
  const { actor } = args;
  const isOwner = hasAnyRole(actor.roles, ["OWNER"]);
  const [account, users, activity] = await Promise.all([
    db.account.findUniqueOrThrow({
      where: { id: actor.accountId },
      select: { id: true, name: true, slug: true, domain: true, createdAt: true },
    }),
    // An account has a handful of dashboard users: counting in memory is simpler than one query per role.
    db.adminUser.findMany({ where: { accountId: actor.accountId }, select: { roles: true, disabledAt: true } }),
    listAuditLog(db, {
      accountId: actor.accountId,
      limit: args.activityLimit ?? 5,
      ...(isOwner ? {} : { actorId: actor.id }),
    }),
  ]);
  const byRole = Object.fromEntries(ADMIN_ROLES.map((role) => [role, 0])) as Record<AdminRole, number>;
  let active = 0;
  for (const user of users) {
    if (user.disabledAt) continue;
    active += 1;
    for (const role of user.roles) byRole[role] += 1;
  }
  return {
    account,
    adminUsers: { active, disabled: users.length - active, byRole },
    activity: { scope: isOwner ? "account" : "own", entries: activity.items },
  };
}
