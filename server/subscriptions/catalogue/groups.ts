/**
 * Subscription groups in the dashboard (REVENUE staff): create, update, soft-delete, and the
 * group with all its plans as the dashboard sees it. Every function is scoped to the actor's
 * account (another account's id is NOT_FOUND) and writes the audit log in its transaction.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { Prisma, SubscriptionType } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { assertNoProblems, groupProblems } from "./catalogue-rules";
import { assertAssetsOfAccount, auditCatalogue, notFound, sent, toEnum } from "./catalogue-shared";
import { GROUP_INCLUDE, groupToWire } from "./catalogue-view";
import {
  ZCreateGroupInput,
  ZIdInput,
  ZUpdateGroupInput,
  type TCreateGroupInput,
  type TUpdateGroupInput,
} from "./catalogue.schema";

async function liveGroup(tx: Db, accountId: number, id: number) {
  const group = await tx.subscriptionGroup.findFirst({ where: { id, accountId, deletedAt: null } });
  if (!group) throw notFound("Subscription group");
  return group;
}

async function setGroupAssets(tx: Db, groupId: number, role: "ASSETS" | "DISPLAY_ASSETS", assetIds: readonly number[]) {
  await tx.groupAsset.deleteMany({ where: { groupId, role } });
  const ids = [...new Set(assetIds)];
  if (ids.length)
    await tx.groupAsset.createMany({ data: ids.map((assetId, position) => ({ groupId, assetId, role, position })) });
}

/** Every live group of the account with every plan (deleted plans too, marked), newest first. */
export async function listGroupsForAdmin(db: Db, args: { actor: Actor }) {
  const groups = await db.subscriptionGroup.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null },
    include: GROUP_INCLUDE,
    orderBy: { id: "desc" },
  });
  return groups.map((g) => groupToWire({ ...g, plans: g.plans.filter((p) => !p.deletedAt) }, { livePlansOnly: false }));
}

export async function createGroup(db: Db, args: { actor: Actor; input: TCreateGroupInput; now?: Date }) {
  const input = parseInput(ZCreateGroupInput, args.input);
  assertNoProblems(groupProblems(input), "subscription group");
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    await assertAssetsOfAccount(tx, accountId, "assetIds", input.assetIds);
    await assertAssetsOfAccount(tx, accountId, "displayAssetIds", input.displayAssetIds);
    const { assetIds, displayAssetIds, subscriptionType, ...fields } = input;
    const group = await tx.subscriptionGroup.create({
      data: { ...fields, accountId, subscriptionType: toEnum(subscriptionType) as SubscriptionType },
    });
    await setGroupAssets(tx, group.id, "ASSETS", assetIds);
    await setGroupAssets(tx, group.id, "DISPLAY_ASSETS", displayAssetIds);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_group",
      change: "create",
      targetId: group.id,
      metadata: { name: group.name, subscription_type: subscriptionType, public: group.public },
      now: args.now,
    });
    return getGroupForAdmin(tx, { actor: args.actor, id: group.id });
  });
}

export async function updateGroup(db: Db, args: { actor: Actor; input: TUpdateGroupInput; now?: Date }) {
  const { id, assetIds, displayAssetIds, ...patch } = parseInput(ZUpdateGroupInput, args.input);
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const current = await liveGroup(tx, accountId, id);
    const changes = sent(patch);
    const merged = {
      subscriptionType: changes.subscriptionType ?? current.subscriptionType.toLowerCase(),
      currency: changes.currency !== undefined ? changes.currency : current.currency,
      targetAmountCents:
        changes.targetAmountCents !== undefined ? changes.targetAmountCents : current.targetAmountCents,
    };
    assertNoProblems(groupProblems(merged), "subscription group");
    if (changes.subscriptionType && changes.subscriptionType !== current.subscriptionType.toLowerCase()) {
      // Plans were checked against the old type (user_limit is for group_access only).
      const withLimit = await tx.subscriptionPlan.count({
        where: { groupId: id, deletedAt: null, userLimit: { not: null } },
      });
      const groupAccess = changes.subscriptionType === "group_access";
      const plans = await tx.subscriptionPlan.count({ where: { groupId: id, deletedAt: null } });
      if ((!groupAccess && withLimit > 0) || (groupAccess && withLimit < plans))
        assertNoProblems(
          [{ field: "subscriptionType", issue: "its plans' user limits do not fit the new type" }],
          "subscription group",
        );
    }
    if (assetIds) await assertAssetsOfAccount(tx, accountId, "assetIds", assetIds);
    if (displayAssetIds) await assertAssetsOfAccount(tx, accountId, "displayAssetIds", displayAssetIds);
    const { subscriptionType, ...rest } = changes;
    const data: Prisma.SubscriptionGroupUpdateInput = { ...rest };
    if (subscriptionType) data.subscriptionType = toEnum(subscriptionType) as SubscriptionType;
    await tx.subscriptionGroup.update({ where: { id }, data });
    if (assetIds) await setGroupAssets(tx, id, "ASSETS", assetIds);
    if (displayAssetIds) await setGroupAssets(tx, id, "DISPLAY_ASSETS", displayAssetIds);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_group",
      change: "update",
      targetId: id,
      metadata: {
        fields: [
          ...Object.keys(changes),
          ...(assetIds ? ["assetIds"] : []),
          ...(displayAssetIds ? ["displayAssetIds"] : []),
        ],
      },
      now: args.now,
    });
    return getGroupForAdmin(tx, { actor: args.actor, id });
  });
}

/** Soft delete: the group leaves every listing; subscriptions made from it (later) keep their copy. */
export async function deleteGroup(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const group = await liveGroup(tx, args.actor.accountId, id);
    await tx.subscriptionGroup.update({ where: { id }, data: { deletedAt: now } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_group",
      change: "delete",
      targetId: id,
      metadata: { name: group.name },
      now,
    });
    return { id };
  });
}

export async function getGroupForAdmin(db: Db, args: { actor: Actor; id: number }) {
  const group = await db.subscriptionGroup.findFirst({
    where: { id: args.id, accountId: args.actor.accountId, deletedAt: null },
    include: GROUP_INCLUDE,
  });
  if (!group) throw notFound("Subscription group");
  return groupToWire({ ...group, plans: group.plans.filter((p) => !p.deletedAt) }, { livePlansOnly: false });
}
