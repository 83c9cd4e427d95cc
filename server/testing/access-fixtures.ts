/**
 * Test data for the access decision (minimal): subscription groups and plans with assets, and
 * subscriptions inserted as rows (checkout is built elsewhere), meter settings and members.
 */
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { SubscriptionAssetType, SubscriptionStatus, SubscriptionType } from "../generated/prisma/enums";
import { forgetMeterCache } from "../subscriptions/access/meter";

let counter = 0;

export async function insertMember(db: Db, accountId: number, name = "Reader") {
  counter++;
  return db.member.create({
    data: { accountId, name, email: `reader-${Date.now().toString(36)}-${counter}@example.com`, passwordHash: "!x" },
  });
}

/** A group and one plan, the group granting `groupAssets` and the plan `planAssets` (type and metadata). */
export async function insertPlanWithAssets(
  db: Db,
  accountId: number,
  options: {
    type?: SubscriptionType;
    groupAssets?: { type: SubscriptionAssetType; metadata?: Prisma.InputJsonObject }[];
    planAssets?: {
      type: SubscriptionAssetType;
      metadata?: Prisma.InputJsonObject;
      role?: "ASSETS" | "ADDITIONAL_ASSETS" | "DISPLAY_ASSETS";
    }[];
  } = {},
) {
  const group = await db.subscriptionGroup.create({
    data: { accountId, name: `Group ${++counter}`, subscriptionType: options.type ?? "STANDARD" },
  });
  const plan = await db.subscriptionPlan.create({
    data: {
      accountId,
      groupId: group.id,
      title: `Plan ${counter}`,
      durationLength: 1,
      durationUnit: "MONTHS",
      priceCents: 500,
      priceCurrency: "USD",
    },
  });
  for (const [i, a] of (options.groupAssets ?? []).entries()) {
    const asset = await db.subscriptionAsset.create({
      data: { accountId, title: `Asset ${++counter}`, type: a.type, metadata: a.metadata ?? {} },
    });
    await db.groupAsset.create({ data: { groupId: group.id, assetId: asset.id, role: "ASSETS", position: i } });
  }
  for (const [i, a] of (options.planAssets ?? []).entries()) {
    const asset = await db.subscriptionAsset.create({
      data: { accountId, title: `Asset ${++counter}`, type: a.type, metadata: a.metadata ?? {} },
    });
    await db.planAsset.create({ data: { planId: plan.id, assetId: asset.id, role: a.role ?? "ASSETS", position: i } });
  }
  return { group, plan };
}

/** A new member with an active subscription to `plan` (insertPlanWithAssets'), of `type` when given: the member. */
export async function insertSubscriber(
  db: Db,
  accountId: number,
  plan: { plan: { id: number }; group: { id: number } },
  type?: SubscriptionType,
) {
  const m = await insertMember(db, accountId);
  await insertSubscription(db, { accountId, memberId: m.id, planId: plan.plan.id, groupId: plan.group.id, type });
  return m;
}

/** A subscription row of `memberId` (active, started an hour ago, ending in a month, unless told). */
export async function insertSubscription(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    planId?: number | null;
    groupId?: number | null;
    type?: SubscriptionType;
    status?: SubscriptionStatus;
    start?: Date;
    end?: Date | null;
    graceEndsAt?: Date | null;
    deletedAt?: Date | null;
    dynamicAssets?: { id: string | number; type: string }[];
  },
) {
  const now = Date.now();
  return db.subscription.create({
    data: {
      accountId: args.accountId,
      memberId: args.memberId,
      planId: args.planId ?? null,
      groupId: args.groupId ?? null,
      subscriptionType: args.type ?? "STANDARD",
      status: args.status ?? "ACTIVE",
      startTimestamp: args.start ?? new Date(now - 3600_000),
      endTimestamp: args.end === undefined ? new Date(now + 30 * 86_400_000) : args.end,
      graceEndsAt: args.graceEndsAt ?? null,
      deletedAt: args.deletedAt ?? null,
      planName: "Plan",
      durationLength: 1,
      durationUnit: "MONTHS",
      planAmountCents: 500,
      planAmountCurrency: "USD",
      paymentType: "manual",
      paymentAmountCents: 500,
      paymentAmountCurrency: "USD",
      dynamicAssets: args.dynamicAssets ?? [],
    },
  });
}

export async function setMeter(
  db: Db,
  accountId: number,
  settings: Partial<{
    enabled: boolean;
    freeStories: number;
    periodLength: number;
    periodUnit: "DAYS" | "WEEKS" | "MONTHS" | "YEARS";
    meterAnonymous: boolean;
    registrationWall: boolean;
    registrationFreeStories: number;
  }> = {},
) {
  const data = {
    enabled: true,
    freeStories: 3,
    periodLength: 1,
    periodUnit: "MONTHS" as const,
    meterAnonymous: true,
    registrationWall: false,
    registrationFreeStories: 3,
    ...settings,
  };
  await db.meterSettings.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
  // Written behind the service's back (no invalidation): forget what this process cached.
  forgetMeterCache();
}
