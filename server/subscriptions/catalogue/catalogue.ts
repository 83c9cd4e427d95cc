/**
 * The catalogue as the REST listings serve it (interface-spec §4.2, §4.3): only public groups
 * (except one asked for by id with the server key), never deleted ones, and in every group only
 * its enabled, non-deleted plans. Another account's group is a 404.
 */
import "server-only";

import type { Db } from "../../db/client";
import type { SubscriptionType } from "../../generated/prisma/client";
import { notFound } from "./catalogue-shared";
import { GROUP_INCLUDE, groupToWire } from "./catalogue-view";

async function publicGroups(db: Db, accountId: number, types: SubscriptionType[] | null) {
  const groups = await db.subscriptionGroup.findMany({
    where: { accountId, public: true, deletedAt: null, ...(types ? { subscriptionType: { in: types } } : {}) },
    include: GROUP_INCLUDE,
    orderBy: { id: "asc" },
  });
  return groups.map((g) => groupToWire(g, { livePlansOnly: true }));
}

/** Every public group of the account, whatever its type (server API). */
export const listPublicGroups = (db: Db, args: { accountId: number }) => publicGroups(db, args.accountId, null);

/** Public groups of the given types: standard (client `subscription_groups`), campaign, group_access. */
export const listPublicGroupsOfType = (
  db: Db,
  args: { accountId: number; type: "standard" | "campaign" | "group_access" },
) => publicGroups(db, args.accountId, [args.type.toUpperCase() as SubscriptionType]);

/** One group by id, public or private, of this account only (server API). */
export async function getGroup(db: Db, args: { accountId: number; id: number }) {
  const group = await db.subscriptionGroup.findFirst({
    where: { id: args.id, accountId: args.accountId, deletedAt: null },
    include: GROUP_INCLUDE,
  });
  if (!group) throw notFound("Subscription group");
  return groupToWire(group, { livePlansOnly: true });
}
