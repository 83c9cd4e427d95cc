/**
 * The catalogue on the wire: the spec's snake_case shapes (interface-spec §2.2) of groups with
 * their plans and assets, campaign groups' extra fields, and pay-per-asset pricing plans.
 */
import { nullPrototypeRecord } from "@/server/own-keys";

import type { Prisma } from "../../generated/prisma/client";
import { centsToDecimal, percentageString } from "../money.schema";

export const GROUP_INCLUDE = {
  assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] },
  plans: {
    include: { assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] } },
    orderBy: { id: "asc" },
  },
} satisfies Prisma.SubscriptionGroupInclude;

type GroupRow = Prisma.SubscriptionGroupGetPayload<{ include: typeof GROUP_INCLUDE }>;
type PlanRow = GroupRow["plans"][number];
type AssetRow = Prisma.SubscriptionAssetGetPayload<object>;
type PricingPlanRow = Prisma.PricingPlanGetPayload<object>;

const lower = <T extends string>(value: T) => value.toLowerCase();
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function assetToWire(asset: AssetRow) {
  return {
    id: asset.id,
    asset_category_id: asset.assetCategoryId,
    title: asset.title,
    type: lower(asset.type),
    metadata: asset.metadata,
  };
}

function assetsOf(links: { role: string; asset: AssetRow }[], role: string) {
  return links.filter((l) => l.role === role).map((l) => assetToWire(l.asset));
}

export function planToWire(plan: PlanRow) {
  const prices = nullPrototypeRecord(Object.entries(plan.prices as Record<string, { amount_cents: number }>));
  prices[plan.priceCurrency] = { amount_cents: plan.priceCents };
  return {
    id: plan.id,
    subscription_group_id: plan.groupId,
    title: plan.title,
    description: plan.description,
    duration_length: plan.durationLength,
    duration_unit: lower(plan.durationUnit),
    price_cents: plan.priceCents,
    price_currency: plan.priceCurrency,
    prices,
    recurring: plan.recurring,
    trial_period_enabled: plan.trialPeriodEnabled,
    max_trial_period_length: plan.maxTrialPeriodLength,
    max_trial_period_unit: plan.maxTrialPeriodUnit ? lower(plan.maxTrialPeriodUnit) : null,
    user_limit: plan.userLimit,
    charge_retry_days: plan.chargeRetryDays,
    grace_period_days: plan.gracePeriodDays,
    supported_payment_providers: plan.supportedPaymentProviders,
    metadata: plan.metadata,
    assets: assetsOf(plan.assets, "ASSETS"),
    additional_assets: assetsOf(plan.assets, "ADDITIONAL_ASSETS"),
    display_assets: assetsOf(plan.assets, "DISPLAY_ASSETS"),
    enabled: plan.enabled,
    deleted_at: iso(plan.deletedAt),
    created_at: plan.createdAt.toISOString(),
    updated_at: plan.updatedAt.toISOString(),
  };
}

/**
 * A group with its plans. `livePlansOnly` (every listing): enabled, not deleted plans only; the
 * dashboard sees them all.
 */
export function groupToWire(group: GroupRow, options: { livePlansOnly: boolean }) {
  const plans = options.livePlansOnly ? group.plans.filter((p) => p.enabled && !p.deletedAt) : group.plans;
  const wire = {
    id: group.id,
    account_id: group.accountId,
    name: group.name,
    description: group.description,
    subscription_type: lower(group.subscriptionType),
    public: group.public,
    proration_enabled: group.prorationEnabled,
    preferred_identity_provider: group.preferredIdentityProvider,
    metadata_fields: group.metadataFields,
    assets: assetsOf(group.assets, "ASSETS"),
    subscription_plans: plans.map(planToWire),
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
    deleted_at: iso(group.deletedAt),
  };
  if (group.subscriptionType !== "CAMPAIGN") return wire;
  const currency = group.currency ?? "USD";
  const target = group.targetAmountCents ?? 0;
  return {
    ...wire,
    currency: group.currency,
    target_amount: centsToDecimal(target, currency),
    target_amount_cents: target,
    target_amount_validation_enabled: group.targetAmountValidationEnabled,
    display_assets: assetsOf(group.assets, "DISPLAY_ASSETS"),
    target_reached: target > 0 && group.collectedAmountCents >= target,
    collected_amount_cents: group.collectedAmountCents,
    collected_amount: centsToDecimal(group.collectedAmountCents, currency),
    collected_amount_percentage: percentageString(group.collectedAmountCents, target),
  };
}

export function pricingPlanToWire(plan: PricingPlanRow) {
  return {
    id: plan.id,
    title: plan.title,
    asset_type: lower(plan.assetType),
    price_cents: plan.priceCents,
    price_currency: plan.priceCurrency,
    duration_length: plan.durationLength,
    duration_unit: lower(plan.durationUnit),
  };
}
