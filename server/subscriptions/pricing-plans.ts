/**
 * Pay per asset: the price of one story or collection for a duration. A pricing plan names the
 * story or collection ids it prices, or none for every asset of its type. A story is priced by
 * its own story plans and by the collection plans of the collections it is in (collection_id[]).
 */
import "server-only";

import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import type { DurationUnit, PricingAssetType, Prisma } from "../generated/prisma/client";
import { parseInput } from "../validation";
import { auditCatalogue, notFound, sent, toEnum, updateChange } from "./catalogue-shared";
import { pricingPlanToWire } from "./catalogue-view";
import {
  ZCreatePricingPlanInput,
  ZIdInput,
  ZUpdatePricingPlanInput,
  type TCreatePricingPlanInput,
  type TPricingPlansQuery,
  type TUpdatePricingPlanInput,
} from "./catalogue.schema";

type Row = Prisma.PricingPlanGetPayload<object>;

function adminWire(plan: Row) {
  return { ...pricingPlanToWire(plan), asset_ids: plan.assetIds as string[], enabled: plan.enabled };
}

export async function listPricingPlansForAdmin(db: Db, args: { actor: Actor }) {
  const plans = await db.pricingPlan.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null },
    orderBy: { id: "asc" },
  });
  return plans.map(adminWire);
}

function columns(fields: Partial<TCreatePricingPlanInput>) {
  const { assetType, durationUnit, assetIds, ...rest } = fields;
  const data: Prisma.PricingPlanUncheckedUpdateInput = { ...rest };
  if (assetType) data.assetType = toEnum(assetType) as PricingAssetType;
  if (durationUnit) data.durationUnit = toEnum(durationUnit) as DurationUnit;
  if (assetIds) data.assetIds = [...new Set(assetIds)];
  return data;
}

export async function createPricingPlan(db: Db, args: { actor: Actor; input: TCreatePricingPlanInput; now?: Date }) {
  const input = parseInput(ZCreatePricingPlanInput, args.input);
  return withTransaction(db, async (tx) => {
    const plan = await tx.pricingPlan.create({
      data: { ...(columns(input) as Prisma.PricingPlanUncheckedCreateInput), accountId: args.actor.accountId },
    });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "pricing_plan",
      change: "create",
      targetId: plan.id,
      metadata: { asset_type: input.assetType, price_cents: plan.priceCents, price_currency: plan.priceCurrency },
      now: args.now,
    });
    return adminWire(plan);
  });
}

export async function updatePricingPlan(db: Db, args: { actor: Actor; input: TUpdatePricingPlanInput; now?: Date }) {
  const { id, ...patch } = parseInput(ZUpdatePricingPlanInput, args.input);
  return withTransaction(db, async (tx) => {
    if (!(await tx.pricingPlan.findFirst({ where: { id, accountId: args.actor.accountId, deletedAt: null } })))
      throw notFound("Pricing plan");
    const changes = sent(patch);
    const plan = await tx.pricingPlan.update({ where: { id }, data: columns(changes) });
    const change = updateChange(changes);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "pricing_plan",
      change,
      targetId: id,
      metadata: { fields: Object.keys(changes) },
      now: args.now,
    });
    return adminWire(plan);
  });
}

export async function deletePricingPlan(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    if (!(await tx.pricingPlan.findFirst({ where: { id, accountId: args.actor.accountId, deletedAt: null } })))
      throw notFound("Pricing plan");
    await tx.pricingPlan.update({ where: { id }, data: { deletedAt: now } });
    await auditCatalogue(tx, { actor: args.actor, kind: "pricing_plan", change: "delete", targetId: id, now });
    return { id };
  });
}

/**
 * GET /api/v1/asset/<asset-type>/pricing_plans.json: the enabled plans that price this asset.
 * Without `id`, every enabled plan of the type. For a story, collection plans of the
 * collections named in collection_id[] count too.
 */
export async function listPricingPlans(
  db: Db,
  args: { accountId: number; assetType: "story" | "collection"; query: TPricingPlansQuery },
) {
  const plans = await db.pricingPlan.findMany({
    where: { accountId: args.accountId, enabled: true, deletedAt: null },
    orderBy: { id: "asc" },
  });
  const { id, collection_id: collectionIds = [] } = args.query;
  const prices = (plan: Row, target: string | undefined) => {
    const ids = plan.assetIds as string[];
    return target === undefined || ids.length === 0 || ids.includes(target);
  };
  const matching = plans.filter((plan) => {
    const type = plan.assetType.toLowerCase();
    if (type === args.assetType) return prices(plan, id);
    if (args.assetType === "story" && type === "collection" && id !== undefined)
      return collectionIds.some((c) => prices(plan, c));
    return false;
  });
  return { pricing_plans: matching.map(pricingPlanToWire) };
}
