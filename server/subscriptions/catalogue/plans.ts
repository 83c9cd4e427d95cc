/**
 * Subscription plans in the dashboard: create, update, enable/disable, soft-delete. A plan's
 * rules (./catalogue-rules.ts) are checked on the whole record against its group's type. Prices
 * are integer cents per currency; `prices` always holds the default price too.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { DurationUnit, Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { chargeRetryDaysOf } from "../recurring/dunning-rules";
import { allPrices, assertNoProblems, planProblems } from "./catalogue-rules";
import { assertAssetsOfAccount, auditCatalogue, notFound, sent, toEnum } from "./catalogue-shared";
import { planToWire } from "./catalogue-view";
import {
  ZCreatePlanInput,
  ZIdInput,
  ZSetEnabledInput,
  ZUpdatePlanInput,
  type TCreatePlanInput,
  type TPlanFields,
  type TUpdatePlanInput,
} from "./catalogue.schema";

type AssetRole = "ASSETS" | "ADDITIONAL_ASSETS" | "DISPLAY_ASSETS";
const ROLE_FIELDS = [
  ["assetIds", "ASSETS"],
  ["additionalAssetIds", "ADDITIONAL_ASSETS"],
  ["displayAssetIds", "DISPLAY_ASSETS"],
] as const satisfies readonly (readonly [keyof TPlanFields, AssetRole])[];

async function livePlan(tx: Db, accountId: number, id: number) {
  const plan = await tx.subscriptionPlan.findFirst({
    where: { id, accountId, deletedAt: null },
    include: { group: true },
  });
  if (!plan || plan.group.deletedAt) throw notFound("Subscription plan");
  return plan;
}

async function setPlanAssets(tx: Db, planId: number, role: AssetRole, assetIds: readonly number[]) {
  await tx.planAsset.deleteMany({ where: { planId, role } });
  const ids = [...new Set(assetIds)];
  if (ids.length)
    await tx.planAsset.createMany({ data: ids.map((assetId, position) => ({ planId, assetId, role, position })) });
}

async function planForAdmin(tx: Db, id: number) {
  const plan = await tx.subscriptionPlan.findUniqueOrThrow({
    where: { id },
    include: { assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] } },
  });
  return planToWire(plan);
}

function columns(
  fields: Partial<Omit<TPlanFields, "groupId" | "assetIds" | "additionalAssetIds" | "displayAssetIds">>,
) {
  const { durationUnit, maxTrialPeriodUnit, prices, metadata, ...rest } = fields;
  const data: Prisma.SubscriptionPlanUncheckedUpdateInput = { ...rest };
  if (durationUnit !== undefined) data.durationUnit = toEnum(durationUnit) as DurationUnit;
  if (maxTrialPeriodUnit !== undefined)
    data.maxTrialPeriodUnit = maxTrialPeriodUnit ? (toEnum(maxTrialPeriodUnit) as DurationUnit) : null;
  if (prices !== undefined) data.prices = prices;
  if (metadata !== undefined) data.metadata = metadata as Prisma.InputJsonObject;
  return data;
}

export async function createPlan(db: Db, args: { actor: Actor; input: TCreatePlanInput; now?: Date }) {
  const input = parseInput(ZCreatePlanInput, args.input);
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const group = await tx.subscriptionGroup.findFirst({ where: { id: input.groupId, accountId, deletedAt: null } });
    if (!group) throw notFound("Subscription group");
    assertNoProblems(planProblems(input, group.subscriptionType.toLowerCase()), "plan");
    for (const [field] of ROLE_FIELDS) await assertAssetsOfAccount(tx, accountId, field, input[field]);
    const { groupId, assetIds: _a, additionalAssetIds: _b, displayAssetIds: _c, ...fields } = input;
    const plan = await tx.subscriptionPlan.create({
      data: {
        ...(columns({ ...fields, prices: allPrices(input) }) as Prisma.SubscriptionPlanUncheckedCreateInput),
        accountId,
        groupId,
      },
    });
    for (const [field, role] of ROLE_FIELDS) await setPlanAssets(tx, plan.id, role, input[field]);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_plan",
      change: "create",
      targetId: plan.id,
      metadata: {
        group_id: groupId,
        title: plan.title,
        price_cents: plan.priceCents,
        price_currency: plan.priceCurrency,
      },
      now: args.now,
    });
    return planForAdmin(tx, plan.id);
  });
}

export async function updatePlan(db: Db, args: { actor: Actor; input: TUpdatePlanInput; now?: Date }) {
  const { id, ...patch } = parseInput(ZUpdatePlanInput, args.input);
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const current = await livePlan(tx, accountId, id);
    const changes = sent(patch);
    const merged = {
      durationUnit: changes.durationUnit ?? (current.durationUnit.toLowerCase() as TPlanFields["durationUnit"]),
      durationLength: changes.durationLength ?? current.durationLength,
      recurring: changes.recurring ?? current.recurring,
      trialPeriodEnabled: changes.trialPeriodEnabled ?? current.trialPeriodEnabled,
      maxTrialPeriodLength:
        changes.maxTrialPeriodLength !== undefined ? changes.maxTrialPeriodLength : current.maxTrialPeriodLength,
      maxTrialPeriodUnit:
        changes.maxTrialPeriodUnit !== undefined
          ? changes.maxTrialPeriodUnit
          : ((current.maxTrialPeriodUnit?.toLowerCase() ?? null) as TPlanFields["maxTrialPeriodUnit"]),
      userLimit: changes.userLimit !== undefined ? changes.userLimit : current.userLimit,
      chargeRetryDays: changes.chargeRetryDays ?? chargeRetryDaysOf(current.chargeRetryDays),
      gracePeriodDays: changes.gracePeriodDays ?? current.gracePeriodDays,
      priceCents: changes.priceCents ?? current.priceCents,
      priceCurrency: changes.priceCurrency ?? current.priceCurrency,
      prices: changes.prices ?? (current.prices as TPlanFields["prices"]),
    };
    if (changes.priceCents !== undefined || changes.priceCurrency !== undefined) {
      // The old default price is no longer part of `prices` unless it is sent again.
      if (!changes.prices) {
        const { [current.priceCurrency]: _old, ...others } = merged.prices;
        merged.prices = others;
      }
    }
    assertNoProblems(planProblems(merged, current.group.subscriptionType.toLowerCase()), "plan");
    for (const [field] of ROLE_FIELDS) {
      const ids = changes[field];
      if (ids) await assertAssetsOfAccount(tx, accountId, field, ids);
    }
    const { assetIds: _a, additionalAssetIds: _b, displayAssetIds: _c, ...fields } = changes;
    await tx.subscriptionPlan.update({ where: { id }, data: columns({ ...fields, prices: allPrices(merged) }) });
    for (const [field, role] of ROLE_FIELDS) {
      const ids = changes[field];
      if (ids) await setPlanAssets(tx, id, role, ids);
    }
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_plan",
      change: "update",
      targetId: id,
      metadata: { fields: Object.keys(changes) },
      now: args.now,
    });
    return planForAdmin(tx, id);
  });
}

export async function setPlanEnabled(
  db: Db,
  args: { actor: Actor; input: { id: number; enabled: boolean }; now?: Date },
) {
  const { id, enabled } = parseInput(ZSetEnabledInput, args.input);
  return withTransaction(db, async (tx) => {
    await livePlan(tx, args.actor.accountId, id);
    await tx.subscriptionPlan.update({ where: { id }, data: { enabled } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_plan",
      change: enabled ? "enable" : "disable",
      targetId: id,
      now: args.now,
    });
    return planForAdmin(tx, id);
  });
}

export async function deletePlan(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const plan = await livePlan(tx, args.actor.accountId, id);
    await tx.subscriptionPlan.update({ where: { id }, data: { deletedAt: now } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "subscription_plan",
      change: "delete",
      targetId: id,
      metadata: { title: plan.title },
      now,
    });
    return { id };
  });
}

/** Every live plan of the account with its group's name, for the dashboard's list. */
export async function listPlansForAdmin(db: Db, args: { actor: Actor }) {
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null, group: { deletedAt: null } },
    include: {
      group: { select: { name: true } },
      assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] },
    },
    orderBy: [{ groupId: "asc" }, { id: "asc" }],
  });
  return { plans: plans.map((p) => ({ ...planToWire(p), group_name: p.group.name })) };
}
