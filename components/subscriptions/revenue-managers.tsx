"use client";

/**
 * The rest of the revenue catalogue (REVENUE staff): assets, campaigns (groups of type campaign,
 * with what they collected) and pay-per-asset pricing plans (their stories or collections picked
 * with ./pricing-asset-picker.tsx), each a ResourceManager on the procedures of subscriptions.*
 * and their zod schemas. Amounts are typed as decimals and sent as integer cents.
 */
import { crud, defineManager, idsOf, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { Money } from "@/components/ui";
import {
  ASSET_TYPES,
  periodInWords,
  PRICING_DURATION_UNITS,
  ZCreateAssetInput,
  ZCreateGroupInput,
  ZCreatePricingPlanInput,
  ZUpdateAssetInput,
  ZUpdateGroupInput,
  ZUpdatePricingPlanInput,
  type PRICING_ASSET_TYPES,
} from "@/server/subscriptions/catalogue/catalogue.schema";
import { centsToDecimal } from "@/server/subscriptions/money.schema";

import {
  accessLevelOf,
  amountProblem,
  cents,
  joinIds,
  listAll,
  options,
  orNull,
  problems,
  useAssetOptions,
  wholeProblem,
  yesNo,
} from "./form-helpers";
import { parseIds, plural, PricingAssetPicker } from "./pricing-asset-picker";

// ─── Assets ─────────────────────────────────────────────────────────────────────────────────

type AssetValues = FormValues & { title: string; type: string; accessLevel: string; assetCategoryId: string };

/** The metadata to store: what the asset had, with access_level for a story asset (and without it otherwise). */
function assetMetadata(values: AssetValues, current: unknown = {}) {
  const { access_level: _old, ...rest } = (typeof current === "object" && current !== null ? current : {}) as Record<
    string,
    unknown
  >;
  return values.type === "story" ? { ...rest, access_level: Number(values.accessLevel) } : rest;
}

/** The asset's fields as the procedures take them (create and update alike). */
function assetInput(values: AssetValues, current?: unknown) {
  return {
    title: values.title,
    type: values.type as (typeof ASSET_TYPES)[number],
    assetCategoryId: values.assetCategoryId.trim() ? Number(values.assetCategoryId) : null,
    metadata: assetMetadata(values, current),
  };
}

const assets = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.assets),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<AssetValues>({
  alsoInvalidate: (trpc) => [trpc.subscriptions.groups.list, trpc.subscriptions.plans.list],
  noun: { one: "asset", many: "assets" },
  search: false,
  emptyText:
    "No assets yet. An asset is what a subscription grants: the whole site, a static area, or stories of an access level.",
  rowId: (a) => a.id,
  rowLabel: (a) => a.title,
  rowTestId: "asset-row",
  columns: [
    { header: "Title", cell: (a) => a.title },
    { header: "Type", cell: (a) => a.type },
    { header: "Access level", cell: (a) => (a.type === "story" ? (accessLevelOf(a.metadata) ?? "–") : "–") },
    { header: "Category", cell: (a) => a.asset_category_id ?? "–" },
  ],
  fields: [
    { name: "title", kind: "text", label: "Title", required: true, maxLength: 200 },
    { name: "type", kind: "select", label: "Type", options: () => options(ASSET_TYPES) },
    {
      name: "accessLevel",
      kind: "text",
      label: "Access level",
      required: true,
      maxLength: 9,
      hint: "Stories whose access level is this one (their access-level-value)",
      when: (v) => v.type === "story",
    },
    { name: "assetCategoryId", kind: "text", label: "Category id", optional: true, maxLength: 9 },
  ],
  emptyValues: () => ({ title: "", type: "site", accessLevel: "", assetCategoryId: "" }),
  validate: (v) =>
    problems({
      accessLevel: v.type === "story" ? wholeProblem(v.accessLevel, 9) : undefined,
      assetCategoryId: v.assetCategoryId.trim() ? wholeProblem(v.assetCategoryId, 9) : undefined,
    }),
  create: {
    schema: ZCreateAssetInput,
    toInput: (v) => assetInput(v),
  },
  update: {
    schema: ZUpdateAssetInput,
    toValues: (a) => ({
      title: a.title,
      type: a.type,
      accessLevel: String(accessLevelOf(a.metadata) ?? ""),
      assetCategoryId: a.asset_category_id === null ? "" : String(a.asset_category_id),
    }),
    toInput: (v, a) => ({ id: a.id, ...assetInput(v, a.metadata) }),
  },
  remove: {
    toInput: (a) => ({ id: a.id }),
    confirm: (a) => ({
      title: `Delete the asset "${a.title}"?`,
      body: "Groups and plans that grant it must let go of it first; the delete is refused until then.",
    }),
  },
});

// ─── Campaigns ──────────────────────────────────────────────────────────────────────────────

type CampaignValues = FormValues & {
  name: string;
  description: string;
  public: string;
  currency: string;
  /** The target as a decimal amount in the currency; sent as cents. */
  targetAmountCents: string;
  targetAmountValidationEnabled: string;
  assetIds: string;
  displayAssetIds: string;
};

type CampaignFields = {
  currency: string | null;
  target_amount_cents: number;
  target_amount_validation_enabled: boolean;
  collected_amount_cents: number;
  collected_amount_percentage: string;
  target_reached: boolean;
  display_assets: { id: number }[];
};

/** A group's campaign fields (only campaign groups carry them on the wire). */
function campaignOf(group: object): CampaignFields {
  const c = group as Partial<CampaignFields>;
  return {
    currency: c.currency ?? null,
    target_amount_cents: c.target_amount_cents ?? 0,
    target_amount_validation_enabled: c.target_amount_validation_enabled ?? false,
    collected_amount_cents: c.collected_amount_cents ?? 0,
    collected_amount_percentage: c.collected_amount_percentage ?? "0.00",
    target_reached: c.target_reached ?? false,
    display_assets: c.display_assets ?? [],
  };
}

function campaignInput(v: CampaignValues) {
  return {
    name: v.name,
    description: v.description,
    public: v.public === "yes",
    currency: orNull(v.currency),
    targetAmountCents: v.targetAmountCents.trim() ? cents(v.targetAmountCents, v.currency) : null,
    targetAmountValidationEnabled: v.targetAmountValidationEnabled === "yes",
    assetIds: idsOf(v.assetIds),
    displayAssetIds: idsOf(v.displayAssetIds),
  };
}

const campaigns = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.groups),
  listInput: listAll,
  rows: (data) => ({ rows: data.filter((g) => g.subscription_type === "campaign") }),
}).with<CampaignValues>({
  alsoInvalidate: (trpc) => [trpc.subscriptions.plans.list],
  noun: { one: "campaign", many: "campaigns" },
  search: false,
  emptyText:
    "No campaigns yet. A campaign collects contributions towards a target; add its contribution plans on the Plans page.",
  rowId: (g) => g.id,
  rowLabel: (g) => g.name,
  rowTestId: "campaign-row",
  columns: [
    { header: "Campaign", cell: (g) => g.name },
    {
      header: "Target",
      cell: (g) => {
        const c = campaignOf(g);
        return <Money cents={c.target_amount_cents} currency={c.currency ?? "USD"} />;
      },
    },
    {
      header: "Collected",
      cell: (g) => {
        const c = campaignOf(g);
        // In the Target column's form: "1,250.00 USD (12.50 %)".
        return (
          <>
            <Money cents={c.collected_amount_cents} currency={c.currency ?? "USD"} /> ({c.collected_amount_percentage}{" "}
            %){c.target_reached ? ", reached" : ""}
          </>
        );
      },
    },
    { header: "Plans", cell: (g) => g.subscription_plans.length },
    { header: "Visibility", cell: (g) => (g.public ? "Public" : "Private") },
  ],
  fields: [
    { name: "name", kind: "text", label: "Name", required: true, maxLength: 200 },
    { name: "public", kind: "radio", label: "Listed publicly", options: yesNo },
    { name: "currency", kind: "text", label: "Currency", required: true, maxLength: 3, hint: "e.g. USD" },
    { name: "targetAmountCents", kind: "text", label: "Target", required: true, hint: "An amount such as 50000.00" },
    {
      name: "targetAmountValidationEnabled",
      kind: "radio",
      label: "Check contributions against the target",
      options: yesNo,
    },
    { name: "description", kind: "textarea", label: "Description", wide: true, maxLength: 5000 },
    {
      name: "assetIds",
      kind: "checkboxes",
      label: "Assets it grants",
      useOptions: useAssetOptions,
      emptyText: "No assets yet.",
    },
    {
      name: "displayAssetIds",
      kind: "checkboxes",
      label: "Display assets",
      hint: "Shown with the campaign; grant nothing.",
      useOptions: useAssetOptions,
      emptyText: "No assets yet.",
    },
  ],
  emptyValues: () => ({
    name: "",
    description: "",
    public: "yes",
    currency: "USD",
    targetAmountCents: "",
    targetAmountValidationEnabled: "no",
    assetIds: "",
    displayAssetIds: "",
  }),
  validate: (v) => problems({ targetAmountCents: amountProblem(v.targetAmountCents, v.currency) }),
  create: {
    schema: ZCreateGroupInput,
    toInput: (v) => ({ ...campaignInput(v), subscriptionType: "campaign" as const }),
  },
  update: {
    schema: ZUpdateGroupInput,
    toValues: (g) => {
      const c = campaignOf(g);
      return {
        name: g.name,
        description: g.description,
        public: g.public ? "yes" : "no",
        currency: c.currency ?? "",
        targetAmountCents: centsToDecimal(c.target_amount_cents, c.currency ?? "USD"),
        targetAmountValidationEnabled: c.target_amount_validation_enabled ? "yes" : "no",
        assetIds: joinIds(g.assets),
        displayAssetIds: joinIds(c.display_assets),
      };
    },
    toInput: (v, g) => ({ id: g.id, ...campaignInput(v) }),
  },
  remove: {
    toInput: (g) => ({ id: g.id }),
    confirm: (g) => ({
      title: `Delete the campaign "${g.name}"?`,
      body: "It and its plans leave every listing. What it collected stays on its subscriptions.",
    }),
  },
});

// ─── Pricing plans (pay per asset) ──────────────────────────────────────────────────────────

type PricingValues = FormValues & {
  title: string;
  assetType: string;
  /** The chosen story or collection ids as a JSON array. */
  assetIds: string;
  /** A decimal amount; sent as cents. */
  priceCents: string;
  priceCurrency: string;
  durationLength: string;
  durationUnit: string;
  enabled: string;
};

function pricingInput(v: PricingValues) {
  return {
    title: v.title,
    assetIds: parseIds(v.assetIds),
    priceCents: cents(v.priceCents, v.priceCurrency),
    priceCurrency: v.priceCurrency,
    durationLength: v.durationUnit === "lifetime" ? 1 : Number(v.durationLength),
    durationUnit: v.durationUnit as (typeof PRICING_DURATION_UNITS)[number],
    enabled: v.enabled === "yes",
  };
}

const pricingPlans = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.pricingPlans),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<PricingValues>({
  noun: { one: "pricing plan", many: "pricing plans" },
  search: false,
  emptyText: "No pricing plans yet. A pricing plan sells one story or collection for a time.",
  rowId: (p) => p.id,
  rowLabel: (p) => p.title || `#${p.id}`,
  rowTestId: "pricing-plan-row",
  columns: [
    { header: "Title", cell: (p) => p.title || `#${p.id}` },
    {
      header: "Prices",
      cell: (p) =>
        p.asset_ids.length
          ? `${p.asset_ids.length} ${p.asset_ids.length === 1 ? p.asset_type : plural(p.asset_type)}`
          : `Every ${p.asset_type}`,
    },
    { header: "Price", cell: (p) => <Money cents={p.price_cents} currency={p.price_currency} /> },
    {
      header: "Access for",
      cell: (p) => periodInWords(p.duration_length, p.duration_unit, { capital: true }),
    },
    { header: "Status", cell: (p) => (p.enabled ? "On sale" : "Off") },
  ],
  fields: [
    { name: "title", kind: "text", label: "Title", optional: true, maxLength: 200 },
    {
      name: "assetType",
      kind: "select",
      label: "Sells",
      only: "create",
      options: () => [
        { value: "story", label: "A story" },
        { value: "collection", label: "A collection" },
      ],
    },
    {
      name: "assetIds",
      kind: "custom",
      label: "Which ones",
      wide: true,
      render: ({ value, values, onChange }) => (
        <PricingAssetPicker
          assetType={values.assetType === "collection" ? "collection" : "story"}
          value={value}
          onChange={onChange}
        />
      ),
    },
    { name: "priceCents", kind: "text", label: "Price", required: true, hint: "An amount such as 1.99" },
    { name: "priceCurrency", kind: "text", label: "Currency", required: true, maxLength: 3 },
    {
      name: "durationLength",
      kind: "text",
      label: "Access for",
      required: true,
      maxLength: 4,
      when: (v) => v.durationUnit !== "lifetime",
    },
    { name: "durationUnit", kind: "select", label: "Unit", options: () => options(PRICING_DURATION_UNITS) },
    { name: "enabled", kind: "radio", label: "On sale", options: yesNo },
  ],
  emptyValues: () => ({
    title: "",
    assetType: "story",
    assetIds: "[]",
    priceCents: "",
    priceCurrency: "USD",
    durationLength: "1",
    durationUnit: "lifetime",
    enabled: "yes",
  }),
  validate: (v) =>
    problems({
      priceCents: amountProblem(v.priceCents, v.priceCurrency),
      durationLength: v.durationUnit === "lifetime" ? undefined : wholeProblem(v.durationLength, 4),
    }),
  create: {
    schema: ZCreatePricingPlanInput,
    toInput: (v) => ({ ...pricingInput(v), assetType: v.assetType as (typeof PRICING_ASSET_TYPES)[number] }),
  },
  update: {
    schema: ZUpdatePricingPlanInput,
    toValues: (p) => ({
      title: p.title,
      assetType: p.asset_type,
      assetIds: JSON.stringify(p.asset_ids),
      priceCents: centsToDecimal(p.price_cents, p.price_currency),
      priceCurrency: p.price_currency,
      durationLength: String(p.duration_length),
      durationUnit: p.duration_unit,
      enabled: p.enabled ? "yes" : "no",
    }),
    toInput: (v, p) => ({ id: p.id, ...pricingInput(v) }),
  },
  remove: {
    toInput: (p) => ({ id: p.id }),
    confirm: (p) => ({
      title: `Delete the pricing plan "${p.title || `#${p.id}`}"?`,
      body: "It is no longer sold; purchases already made keep their access.",
    }),
  },
});

export const AssetManager = () => <ResourceManager config={assets} />;
export const CampaignManager = () => <ResourceManager config={campaigns} />;
export const PricingPlanManager = () => <ResourceManager config={pricingPlans} />;
