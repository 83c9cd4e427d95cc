/**
 * The catalogue's inputs (dashboard tRPC and services) and the REST listings' queries. Zod only:
 * imported by the dashboard's client components too. Shape errors are 400s here; the rules that
 * weigh one field against another (a lifetime plan is not recurring…) live in ./catalogue-rules.ts
 * and answer 422, on create and on the merged record of an update alike.
 */
import { z } from "zod";

import { zBoundedInstant } from "../../dates.schema";
import { MAX_CENTS, ZCents, ZCurrency } from "../money.schema";

export const SUBSCRIPTION_TYPES = ["standard", "individual", "campaign", "group_access", "dynamic_asset"] as const;
export const DURATION_UNITS = ["weeks", "months", "years", "lifetime"] as const;
export const TRIAL_UNITS = ["days", "weeks", "months", "years"] as const;
export const ASSET_TYPES = ["site", "static", "story"] as const;
export const PRICING_ASSET_TYPES = ["story", "collection"] as const;
export const PRICING_DURATION_UNITS = ["days", "weeks", "months", "years", "lifetime"] as const;

/**
 * A plan's period in words: "1 month", "3 months", "lifetime"; with `per`, as a price says it:
 * "per month", "per 3 months", "for life"; `capital` for the start of a cell ("Lifetime").
 * Units are stored plural ("months").
 */
export function periodInWords(
  length: number,
  unit: string,
  options: { per?: boolean; capital?: boolean } = {},
): string {
  const one = unit.replace(/s$/, "");
  const words =
    unit === "lifetime"
      ? options.per
        ? "for life"
        : "lifetime"
      : options.per
        ? length === 1
          ? `per ${one}`
          : `per ${length} ${unit}`
        : length === 1
          ? `1 ${one}`
          : `${length} ${unit}`;
  return options.capital ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}

/**
 * A plan's trial as a reader reads it before the price: "14 days free", "1 month free"; null when
 * the plan offers none (a trial needs a recurring plan with its trial enabled and a length).
 */
export function trialInWords(plan: {
  recurring: boolean;
  trial_period_enabled?: boolean | null;
  max_trial_period_length?: number | null;
  max_trial_period_unit?: string | null;
}): string | null {
  const { max_trial_period_length: length, max_trial_period_unit: unit } = plan;
  if (!plan.recurring || !plan.trial_period_enabled || !length || !unit) return null;
  return `${periodInWords(length, unit.toLowerCase())} free`;
}

/**
 * What a checkout with a trial charges today, said to the reader before they pay: the
 * authorization (spec §4.2 rule 6) checks the card and is refunded; the first payment of `price`
 * comes when the trial (`length` `unit`) ends.
 */
export function trialAuthorizationInWords(authorization: string, price: string, length: number, unit: string): string {
  const trial = `${length}-${unit.toLowerCase().replace(/s$/, "")}`;
  return (
    `Today: ${authorization} to check your card, refunded at once; it is not a payment. ` +
    `Your first payment, ${price}, is taken when the ${trial} trial ends.`
  );
}

const ZId = z.coerce.number().int().positive().max(2_147_483_647);
const ZName = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");
const ZDescription = z.string().trim().max(5000, "must be at most 5000 characters");
const ZMetadata = z.record(z.string().max(100), z.unknown()).refine((m) => JSON.stringify(m).length <= 10_000, {
  message: "must be at most 10,000 characters as JSON",
});
const ZLength = z.number().int().min(1, "must be at least 1").max(1000, "must be at most 1000");
const ZProvider = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[a-z0-9_]+$/, "must be a lower-case provider name such as razorpay or manual");

/**
 * An update's fields: every field optional and WITHOUT its create default (zod 4 applies a
 * default inside an optional property, which would silently reset fields an update leaves out).
 */
type PatchShape<S extends z.ZodRawShape> = {
  [K in keyof S]: S[K] extends z.ZodDefault<infer I extends z.ZodType> ? z.ZodOptional<I> : z.ZodOptional<S[K]>;
};
function patchShape<S extends z.ZodRawShape>(shape: S): PatchShape<S> {
  return Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [
      key,
      ((schema instanceof z.ZodDefault ? schema.unwrap() : schema) as z.ZodType).optional(),
    ]),
  ) as PatchShape<S>;
}

export const ZIdInput = z.object({ id: ZId });
export const ZSetEnabledInput = z.object({ id: ZId, enabled: z.boolean() });

// ─── Groups ─────────────────────────────────────────────────────────────────────────────────

const ZGroupFields = z.object({
  name: ZName,
  description: ZDescription.default(""),
  subscriptionType: z.enum(SUBSCRIPTION_TYPES).default("standard"),
  public: z.boolean().default(true),
  /** Plan switches within the group: prorated and applied at once, or scheduled for the period end (../recurring/plan-switch.ts). */
  prorationEnabled: z.boolean().default(true),
  preferredIdentityProvider: z.string().trim().min(1).max(50).nullable().default(null),
  metadataFields: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(50)
        .regex(/^[a-z0-9_]+$/, "must be a snake_case field name"),
    )
    .max(20)
    .default([]),
  /** Campaign groups only. */
  currency: ZCurrency.nullable().default(null),
  targetAmountCents: z.number().int().max(MAX_CENTS).nullable().default(null),
  targetAmountValidationEnabled: z.boolean().default(false),
  /** Asset ids. */
  assetIds: z.array(ZId).max(100).default([]),
  displayAssetIds: z.array(ZId).max(100).default([]),
});
export const ZCreateGroupInput = ZGroupFields;
export type TCreateGroupInput = z.input<typeof ZCreateGroupInput>;
export const ZUpdateGroupInput = z.object({ id: ZId, ...patchShape(ZGroupFields.shape) });
export type TUpdateGroupInput = z.input<typeof ZUpdateGroupInput>;

// ─── Plans ──────────────────────────────────────────────────────────────────────────────────

/** A recurring plan's grace period when none is set: what every plan had before it was a setting. */
export const DEFAULT_GRACE_PERIOD_DAYS = 7;
/** The longest grace period, and the most retries, a plan may set. */
export const MAX_GRACE_PERIOD_DAYS = 90;
export const MAX_CHARGE_RETRIES = 10;

/** Days after a failed recurring charge to retry it (dunning): whole days, at most MAX_CHARGE_RETRIES. */
const ZChargeRetryDays = z
  .array(z.number().int().min(1).max(MAX_GRACE_PERIOD_DAYS))
  .max(MAX_CHARGE_RETRIES, `at most ${MAX_CHARGE_RETRIES} retries`);

const ZPrices = z.record(ZCurrency, z.object({ amount_cents: ZCents })).refine((p) => Object.keys(p).length <= 20, {
  message: "at most 20 currencies",
});

const ZPlanFields = z.object({
  groupId: ZId,
  title: ZName,
  description: ZDescription.default(""),
  durationLength: ZLength,
  durationUnit: z.enum(DURATION_UNITS),
  priceCents: ZCents,
  priceCurrency: ZCurrency,
  /** Other currencies; the default price is added to it. */
  prices: ZPrices.default({}),
  recurring: z.boolean().default(false),
  trialPeriodEnabled: z.boolean().default(false),
  maxTrialPeriodLength: ZLength.nullable().default(null),
  maxTrialPeriodUnit: z.enum(TRIAL_UNITS).nullable().default(null),
  userLimit: z.number().int().min(1).max(100_000).nullable().default(null),
  /** Dunning: retry a failed recurring charge these many days after it failed, e.g. [1, 3, 5]. */
  chargeRetryDays: ZChargeRetryDays.default([]),
  /** Dunning: how long a recurring subscription whose charge failed keeps access. */
  gracePeriodDays: z.number().int().min(0).max(MAX_GRACE_PERIOD_DAYS).default(DEFAULT_GRACE_PERIOD_DAYS),
  supportedPaymentProviders: z.array(ZProvider).max(20).default([]),
  metadata: ZMetadata.default({}),
  enabled: z.boolean().default(true),
  assetIds: z.array(ZId).max(100).default([]),
  additionalAssetIds: z.array(ZId).max(100).default([]),
  displayAssetIds: z.array(ZId).max(100).default([]),
});
export const ZCreatePlanInput = ZPlanFields;
export type TCreatePlanInput = z.input<typeof ZCreatePlanInput>;
export const ZUpdatePlanInput = z.object({ id: ZId, ...patchShape(ZPlanFields.omit({ groupId: true }).shape) });
export type TUpdatePlanInput = z.input<typeof ZUpdatePlanInput>;
export type TPlanFields = z.output<typeof ZPlanFields>;

// ─── Assets ─────────────────────────────────────────────────────────────────────────────────

const ZAssetFields = z.object({
  title: ZName,
  type: z.enum(ASSET_TYPES),
  assetCategoryId: ZId.nullable().default(null),
  /** Story assets carry access_level (a number, as the original service sends). */
  metadata: ZMetadata.default({}),
});
export const ZCreateAssetInput = ZAssetFields;
export type TCreateAssetInput = z.input<typeof ZCreateAssetInput>;
export const ZUpdateAssetInput = z.object({ id: ZId, ...patchShape(ZAssetFields.shape) });
export type TUpdateAssetInput = z.input<typeof ZUpdateAssetInput>;

// ─── Pricing plans (pay per asset) ──────────────────────────────────────────────────────────

const ZPricingPlanFields = z.object({
  title: z.string().trim().max(200).default(""),
  assetType: z.enum(PRICING_ASSET_TYPES),
  /** Story or collection ids; empty: every asset of the type. */
  assetIds: z.array(z.string().trim().min(1).max(100)).max(500).default([]),
  priceCents: ZCents,
  priceCurrency: ZCurrency,
  durationLength: ZLength.default(1),
  durationUnit: z.enum(PRICING_DURATION_UNITS),
  enabled: z.boolean().default(true),
});
export const ZCreatePricingPlanInput = ZPricingPlanFields;
export type TCreatePricingPlanInput = z.input<typeof ZCreatePricingPlanInput>;
export const ZUpdatePricingPlanInput = z.object({ id: ZId, ...patchShape(ZPricingPlanFields.shape) });
export type TUpdatePricingPlanInput = z.input<typeof ZUpdatePricingPlanInput>;

/**
 * The dashboard's picker of what a pricing plan prices: stories (by headline or slug words) or
 * collections (by name or slug), or the ones named by `ids` (to label those already chosen).
 */
export const ZSearchPricingAssetsInput = z.object({
  assetType: z.enum(PRICING_ASSET_TYPES),
  q: z.string().trim().max(200).optional(),
  ids: z.array(z.string().trim().min(1).max(100)).max(500).optional(),
});
export type TSearchPricingAssetsInput = z.input<typeof ZSearchPricingAssetsInput>;

// ─── Coupons ────────────────────────────────────────────────────────────────────────────────

const COUPON_CODE = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

const ZCouponFields = z.object({
  code: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(COUPON_CODE, "must be 3 to 32 letters, digits, - or _, starting with a letter or digit")),
  title: z.string().trim().max(200).default(""),
  discountType: z.enum(["percent", "fixed"]),
  percentOff: z.number().int().nullable().default(null),
  amountOffCents: z.number().int().max(MAX_CENTS).nullable().default(null),
  amountCurrency: ZCurrency.nullable().default(null),
  validFrom: zBoundedInstant,
  validUntil: zBoundedInstant.nullable().default(null),
  maxRedemptions: z.number().int().min(1).max(10_000_000).nullable().default(null),
  maxRedemptionsPerSubscriber: z.number().int().min(1).max(1000).nullable().default(null),
  planIds: z.array(ZId).max(100).default([]),
  groupIds: z.array(ZId).max(100).default([]),
  enabled: z.boolean().default(true),
});
export const ZCreateCouponInput = ZCouponFields;
export type TCreateCouponInput = z.input<typeof ZCreateCouponInput>;
export const ZUpdateCouponInput = z.object({ id: ZId, ...patchShape(ZCouponFields.omit({ code: true }).shape) });
export type TUpdateCouponInput = z.input<typeof ZUpdateCouponInput>;
export type TCouponFields = z.output<typeof ZCouponFields>;

// ─── Tax rules ──────────────────────────────────────────────────────────────────────────────

const ZTaxRuleFields = z.object({
  name: z.string().trim().min(1, "is required").max(50),
  /** 1800 = 18 %. */
  rateBasisPoints: z.number().int().min(0, "must not be negative").max(10_000, "must be at most 100 %"),
  country: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code"))
    .nullable()
    .default(null),
  region: z.string().trim().min(1).max(10).nullable().default(null),
  inclusive: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export const ZCreateTaxRuleInput = ZTaxRuleFields;
export type TCreateTaxRuleInput = z.input<typeof ZCreateTaxRuleInput>;
export const ZUpdateTaxRuleInput = z.object({ id: ZId, ...patchShape(ZTaxRuleFields.shape) });
export type TUpdateTaxRuleInput = z.input<typeof ZUpdateTaxRuleInput>;
export type TTaxRuleFields = z.output<typeof ZTaxRuleFields>;

// ─── REST listings ──────────────────────────────────────────────────────────────────────────

export const ZGroupIdParams = z.object({
  /** "12.json" or "12". */
  group_id: z
    .string()
    .regex(/^\d{1,9}(\.json)?$/, "must be a group id")
    .transform((s) => Number.parseInt(s, 10)),
});

export const ZPricingPlansParams = z.object({
  /** "story", "collection" (the path's <asset-type>). */
  asset_type: z.enum(PRICING_ASSET_TYPES, { message: "must be story or collection" }),
});

const ZOneOrMany = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.string().trim().min(1).max(100)).max(100));

export const ZPricingPlansQuery = z.object({
  id: z.string().trim().min(1).max(100).optional(),
  collection_id: ZOneOrMany.optional(),
});
export type TPricingPlansQuery = z.output<typeof ZPricingPlansQuery>;
