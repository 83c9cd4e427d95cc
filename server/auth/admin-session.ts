/**
 * Who is signed in to the dashboard. The session cookie (a next-auth JWT) only names the user;
 * everything else is read from the database on each request (`findActiveAdminUser`), so a user
 * disabled, deleted or given other roles is treated accordingly from their next request on.
 */
import "server-only";

import type { Db } from "../db/client";
import type { AdminRole } from "./roles";

export type AdminSessionUser = {
  id: string;
  name: string;
  email: string;
  accountId: number;
  accountName: string;
  roles: AdminRole[];
};

export type AdminSession = { user: AdminSessionUser };

/** Who a service acts for: the signed-in admin user, scoped to their account. */
export type AdminActor = { id: string; accountId: number; roles: AdminRole[] };

export const toAdminActor = (user: AdminSessionUser): AdminActor => ({ id: user.id, accountId: user.accountId, roles: user.roles });

/** The user as the session should carry them, or null when they no longer exist or are disabled. One indexed query. */
export async function findActiveAdminUser(db: Db, args: { id: string }): Promise<AdminSessionUser | null> {
  if (!UUID.test(args.id)) return null;
  const user = await db.adminUser.findUnique({
    where: { id: args.id },
    select: { id: true, name: true, email: true, accountId: true, roles: true, disabledAt: true, account: { select: { name: true } } },
  });
  if (!user || user.disabledAt) return null;
  return { id: user.id, name: user.name, email: user.email, accountId: user.accountId, accountName: user.account.name, roles: user.roles };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
