/**
 * Pay per asset: the price of one story or collection for a duration. A pricing plan names the
 * story or collection ids it prices, or none for every asset of its type. A story is priced by
 * its own story plans and by the collection plans of the collections it is in (collection_id[]).
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { DurationUnit, PricingAssetType, Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { auditCatalogue, notFound, sent, toEnum, updateChange } from "./catalogue-shared";
import { pricingPlanToWire } from "./catalogue-view";
import {
  ZCreatePricingPlanInput,
  ZIdInput,
  ZSearchPricingAssetsInput,
  ZUpdatePricingPlanInput,
  type TCreatePricingPlanInput,
  type TPricingPlansQuery,
  type TSearchPricingAssetsInput,
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERIAL = /^[1-9]\d{0,9}$/;
const PICKER_LIMIT = 20;

/**
 * What the dashboard's pricing-plan form picks from (REVENUE staff, who cannot open the content
 * area): the account's stories (any status, by headline or slug words, newest first) or live
 * collections (by name or slug), 20 at most; or, with `ids`, exactly those of them that exist, to
 * label the ones a plan already names. Ids of the wrong shape (not a UUID for a story, not a
 * serial for a collection) match nothing rather than failing the query.
 */
export async function searchPricingAssets(db: Db, args: { actor: Actor; input: TSearchPricingAssetsInput }) {
  const { assetType, q, ids } = parseInput(ZSearchPricingAssetsInput, args.input);
  const accountId = args.actor.accountId;
  const words = (q ?? "").split(/\s+/).filter(Boolean).slice(0, 8);
  if (assetType === "story") {
    const wanted = ids?.filter((id) => UUID.test(id));
    if (ids && !wanted?.length) return { assets: [] };
    const stories = await db.story.findMany({
      where: {
        accountId,
        ...(wanted ? { id: { in: wanted } } : {}),
        AND: words.map((word) => ({
          OR: [
            { headline: { contains: word, mode: "insensitive" as const } },
            { slug: { contains: word, mode: "insensitive" as const } },
          ],
        })),
      },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      take: wanted ? wanted.length : PICKER_LIMIT,
      select: { id: true, headline: true, slug: true, status: true },
    });
    return {
      assets: stories.map((s) => ({ id: s.id, title: s.headline, detail: `${s.slug} · ${s.status.toLowerCase()}` })),
    };
  }
  const wanted = ids?.filter((id) => SERIAL.test(id) && Number(id) <= 2_147_483_647).map(Number);
  if (ids && !wanted?.length) return { assets: [] };
  const collections = await db.collection.findMany({
    where: {
      accountId,
      deletedAt: null,
      ...(wanted ? { id: { in: wanted } } : {}),
      AND: words.map((word) => ({
        OR: [
          { name: { contains: word, mode: "insensitive" as const } },
          { slug: { contains: word, mode: "insensitive" as const } },
        ],
      })),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take: wanted ? wanted.length : PICKER_LIMIT,
    select: { id: true, name: true, slug: true, automated: true },
  });
  return {
    assets: collections.map((c) => ({
      id: String(c.id),
      title: c.name,
      detail: `${c.slug} · ${c.automated ? "automatic" : "manual"}`,
    })),
  };
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
