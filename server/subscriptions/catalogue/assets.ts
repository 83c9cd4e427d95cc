/**
 * Assets: what a subscription grants (a site, a static area, stories of an access level).
 * Linked to groups and plans (assets, additional_assets, display_assets). Deleting an asset that a
 * group or plan still names is refused (409): unlink it first.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma, SubscriptionAssetType } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { auditCatalogue, notFound, sent, toEnum } from "./catalogue-shared";
import { assetToWire } from "./catalogue-view";
import {
  ZCreateAssetInput,
  ZIdInput,
  ZUpdateAssetInput,
  type TCreateAssetInput,
  type TUpdateAssetInput,
} from "./catalogue.schema";

export async function listAssets(db: Db, args: { actor: Actor }) {
  const assets = await db.subscriptionAsset.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: { id: "asc" },
  });
  return assets.map(assetToWire);
}

export async function createAsset(db: Db, args: { actor: Actor; input: TCreateAssetInput; now?: Date }) {
  const input = parseInput(ZCreateAssetInput, args.input);
  return withTransaction(db, async (tx) => {
    const asset = await tx.subscriptionAsset.create({
      data: {
        accountId: args.actor.accountId,
        title: input.title,
        type: toEnum(input.type) as SubscriptionAssetType,
        assetCategoryId: input.assetCategoryId,
        metadata: input.metadata as Prisma.InputJsonObject,
      },
    });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_asset",
      change: "create",
      targetId: asset.id,
      metadata: { title: asset.title, type: input.type },
      now: args.now,
    });
    return assetToWire(asset);
  });
}

export async function updateAsset(db: Db, args: { actor: Actor; input: TUpdateAssetInput; now?: Date }) {
  const { id, ...patch } = parseInput(ZUpdateAssetInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await tx.subscriptionAsset.findFirst({ where: { id, accountId: args.actor.accountId } });
    if (!current) throw notFound("Asset");
    const { type, metadata, ...rest } = sent(patch);
    const data: Prisma.SubscriptionAssetUpdateInput = { ...rest };
    if (type) data.type = toEnum(type) as SubscriptionAssetType;
    if (metadata) data.metadata = metadata as Prisma.InputJsonObject;
    const asset = await tx.subscriptionAsset.update({ where: { id }, data });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_asset",
      change: "update",
      targetId: id,
      metadata: { fields: Object.keys(sent(patch)) },
      now: args.now,
    });
    return assetToWire(asset);
  });
}

export async function deleteAsset(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  return withTransaction(db, async (tx) => {
    const asset = await tx.subscriptionAsset.findFirst({ where: { id, accountId: args.actor.accountId } });
    if (!asset) throw notFound("Asset");
    const links =
      (await tx.groupAsset.count({ where: { assetId: id } })) + (await tx.planAsset.count({ where: { assetId: id } }));
    if (links) throw new AppError("CONFLICT", "Groups or plans still name this asset: take it off them first.");
    await tx.subscriptionAsset.delete({ where: { id } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_asset",
      change: "delete",
      targetId: id,
      metadata: { title: asset.title },
      now: args.now,
    });
    return { id };
  });
}
