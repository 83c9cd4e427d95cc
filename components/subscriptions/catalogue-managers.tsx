"use client";

/**
 * The subscriptions catalogue in the dashboard (REVENUE staff): groups and plans, each a
 * ResourceManager (coupons: ./coupon-manager.tsx; tax rules: ./tax-rule-manager.tsx). Prices are
 * typed as decimal amounts ("9.99") and sent as integer cents (server/subscriptions/money.schema.ts: no
 * floating-point money).
 */
import { useQuery } from "@tanstack/react-query";

import { crud, defineManager, idsOf, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { useTRPC } from "@/components/trpc/react";
import { Money, Select } from "@/components/ui";
import {
  DURATION_UNITS,
  periodInWords,
  SUBSCRIPTION_TYPES,
  TRIAL_UNITS,
  trialInWords,
  ZCreateGroupInput,
  ZCreatePlanInput,
  ZUpdateGroupInput,
  ZUpdatePlanInput,
} from "@/server/subscriptions/catalogue/catalogue.schema";
import { centsToDecimal } from "@/server/subscriptions/money.schema";

import {
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
import { priceListOf, priceListProblem, pricesOf } from "./price-list";

// ─── Groups ─────────────────────────────────────────────────────────────────────────────────

type GroupValues = FormValues & {
  name: string;
  description: string;
  subscriptionType: string;
  public: string;
  prorationEnabled: string;
  currency: string;
  /** The campaign's target as a decimal amount; sent as cents. */
  targetAmountCents: string;
  assetIds: string;
};

/** The group's fields as the procedures take them (create and update alike). */
function groupInput(v: GroupValues) {
  return {
    name: v.name,
    description: v.description,
    subscriptionType: v.subscriptionType as (typeof SUBSCRIPTION_TYPES)[number],
    public: v.public === "yes",
    prorationEnabled: v.prorationEnabled === "yes",
    currency: orNull(v.currency),
    targetAmountCents: v.targetAmountCents.trim() ? cents(v.targetAmountCents, v.currency) : null,
    assetIds: idsOf(v.assetIds),
  };
}

const groups = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.groups),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<GroupValues>({
  noun: { one: "group", many: "subscription groups" },
  // The list procedures take no search: a search box would filter nothing.
  search: false,
  title: "Subscription groups",
  rowId: (g) => g.id,
  rowLabel: (g) => g.name,
  rowTestId: "group-row",
  columns: [
    { header: "Name", cell: (g) => g.name },
    { header: "Type", cell: (g) => g.subscription_type.replace("_", " ") },
    { header: "Visibility", cell: (g) => (g.public ? "Public" : "Private") },
    { header: "Plans", cell: (g) => g.subscription_plans.length },
  ],
  fields: [
    { name: "name", kind: "text", label: "Name", required: true, maxLength: 200 },
    { name: "subscriptionType", kind: "select", label: "Type", options: () => options(SUBSCRIPTION_TYPES) },
    { name: "public", kind: "radio", label: "Listed publicly", options: yesNo },
    {
      name: "prorationEnabled",
      kind: "radio",
      label: "Prorate plan switches",
      options: yesNo,
      hint: "Yes: a switch applies at once, the unused days credited: an upgrade pays the difference now (a recurring plan's is charged to the stored card), a recurring downgrade's difference comes off the next charges. A gateway that charges its subscriptions itself (Razorpay) still waits for the next charge. No: every switch waits for the end of the period paid for.",
    },
    { name: "description", kind: "textarea", label: "Description", wide: true, maxLength: 5000 },
    {
      name: "currency",
      kind: "text",
      label: "Campaign currency",
      optional: true,
      maxLength: 3,
      hint: "Campaigns only, e.g. USD",
    },
    {
      name: "targetAmountCents",
      kind: "text",
      label: "Campaign target",
      optional: true,
      hint: "Campaigns only, e.g. 50000.00",
    },
    {
      name: "assetIds",
      kind: "checkboxes",
      label: "Assets it grants",
      wide: true,
      useOptions: useAssetOptions,
      emptyText: "No assets yet: add them under Subscriptions → Assets.",
    },
  ],
  emptyValues: () => ({
    name: "",
    description: "",
    subscriptionType: "standard",
    public: "yes",
    prorationEnabled: "yes",
    currency: "",
    targetAmountCents: "",
    assetIds: "",
  }),
  validate: (v) =>
    problems({
      targetAmountCents: v.targetAmountCents.trim() ? amountProblem(v.targetAmountCents, v.currency) : undefined,
    }),
  create: {
    schema: ZCreateGroupInput,
    toInput: groupInput,
  },
  update: {
    schema: ZUpdateGroupInput,
    toValues: (g) => ({
      name: g.name,
      description: g.description,
      subscriptionType: g.subscription_type,
      public: g.public ? "yes" : "no",
      prorationEnabled: g.proration_enabled ? "yes" : "no",
      currency: "currency" in g && typeof g.currency === "string" ? g.currency : "",
      targetAmountCents:
        "target_amount_cents" in g && typeof g.target_amount_cents === "number"
          ? centsToDecimal(g.target_amount_cents, String(g.currency ?? "USD"))
          : "",
      assetIds: joinIds(g.assets),
    }),
    toInput: (v, g) => ({ id: g.id, ...groupInput(v) }),
  },
  remove: {
    toInput: (g) => ({ id: g.id }),
    confirm: (g) => ({ title: `Delete the group "${g.name}"?`, body: "It and its plans leave every listing." }),
  },
});

/** The account's groups, to file a new plan under. */
function GroupSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const trpc = useTRPC();
  const groupList = useQuery(trpc.subscriptions.groups.list.queryOptions());
  return (
    <Select
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder="Choose a group"
      required
      options={(groupList.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
    />
  );
}

// ─── Plans ──────────────────────────────────────────────────────────────────────────────────

type PlanValues = FormValues & {
  groupId: string;
  title: string;
  description: string;
  durationLength: string;
  durationUnit: string;
  /** A decimal amount; sent as cents. */
  priceCents: string;
  priceCurrency: string;
  /** Other currencies' prices: "EUR 8.99, GBP 7.99". */
  otherPrices: string;
  recurring: string;
  /** The free trial's length; empty: no trial. */
  maxTrialPeriodLength: string;
  maxTrialPeriodUnit: string;
  enabled: string;
  userLimit: string;
  /** Dunning: days after a failed charge to retry it, "1, 3, 5"; empty: never. */
  chargeRetryDays: string;
  gracePeriodDays: string;
  assetIds: string;
  additionalAssetIds: string;
  displayAssetIds: string;
};

/** "1, 3, 5" as days; "" as none. */
const retryDaysOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** Why "1, 3, 5" is not a list of whole days, if it is not. */
function retryDaysProblem(text: string): string | undefined {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.every((p) => /^\d{1,2}$/.test(p) && Number(p) >= 1)
    ? undefined
    : "Enter whole days after the failed charge, such as 1, 3, 5";
}

/** The plan's fields as the procedures take them (create and update alike; create adds the group). */
function planInput(v: PlanValues) {
  return {
    title: v.title,
    description: v.description,
    durationLength: Number(v.durationLength),
    durationUnit: v.durationUnit as (typeof DURATION_UNITS)[number],
    priceCents: cents(v.priceCents, v.priceCurrency),
    priceCurrency: v.priceCurrency,
    prices: pricesOf(v.otherPrices),
    recurring: v.recurring === "yes",
    trialPeriodEnabled: v.maxTrialPeriodLength.trim() !== "",
    maxTrialPeriodLength: v.maxTrialPeriodLength.trim() ? Number(v.maxTrialPeriodLength) : null,
    maxTrialPeriodUnit: v.maxTrialPeriodLength.trim() ? (v.maxTrialPeriodUnit as (typeof TRIAL_UNITS)[number]) : null,
    enabled: v.enabled === "yes",
    userLimit: v.userLimit ? Number(v.userLimit) : null,
    chargeRetryDays: retryDaysOf(v.chargeRetryDays),
    gracePeriodDays: Number(v.gracePeriodDays),
    assetIds: idsOf(v.assetIds),
    additionalAssetIds: idsOf(v.additionalAssetIds),
    displayAssetIds: idsOf(v.displayAssetIds),
  };
}

const plans = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.plans),
  listInput: listAll,
  rows: (data) => ({ rows: data.plans }),
}).with<PlanValues>({
  alsoInvalidate: (trpc) => [trpc.subscriptions.groups.list],
  noun: { one: "plan", many: "plans" },
  // The list procedures take no search: a search box would filter nothing.
  search: false,
  title: "Plans",
  rowId: (p) => p.id,
  rowLabel: (p) => p.title,
  rowTestId: "plan-row",
  columns: [
    { header: "Plan", cell: (p) => p.title },
    { header: "Group", cell: (p) => p.group_name },
    {
      header: "Price",
      cell: (p) => {
        const others = priceListOf(p.prices, p.price_currency);
        return (
          <>
            <Money cents={p.price_cents} currency={p.price_currency} />
            {others ? ` (also ${others})` : ""}
          </>
        );
      },
    },
    {
      header: "Duration",
      cell: (p) => periodInWords(p.duration_length, p.duration_unit, { capital: true }),
    },
    {
      header: "Status",
      cell: (p) =>
        [p.enabled ? "On" : "Off", p.recurring ? "recurring" : null, trialInWords(p)].filter(Boolean).join(", "),
    },
  ],
  fields: [
    { name: "title", kind: "text", label: "Title", required: true, maxLength: 200 },
    {
      name: "groupId",
      kind: "custom",
      label: "Group",
      only: "create",
      render: ({ value, onChange }) => <GroupSelect value={value} onChange={onChange} />,
    },
    { name: "priceCents", kind: "text", label: "Price", required: true, hint: "An amount such as 9.99" },
    { name: "priceCurrency", kind: "text", label: "Currency", required: true, maxLength: 3 },
    {
      name: "otherPrices",
      kind: "text",
      label: "Prices in other currencies",
      optional: true,
      maxLength: 400,
      hint: "Such as EUR 8.99, GBP 7.99. A reader pays in their currency when the plan has a price in it.",
    },
    { name: "durationLength", kind: "text", label: "Duration", required: true, maxLength: 4 },
    { name: "durationUnit", kind: "select", label: "Unit", options: () => options(DURATION_UNITS) },
    { name: "recurring", kind: "radio", label: "Renews automatically", options: yesNo },
    {
      name: "maxTrialPeriodLength",
      kind: "text",
      label: "Free trial",
      optional: true,
      maxLength: 4,
      hint: "Its length, for plans that renew automatically; empty: no trial. One trial per reader.",
    },
    { name: "maxTrialPeriodUnit", kind: "select", label: "Trial unit", options: () => options(TRIAL_UNITS) },
    { name: "enabled", kind: "radio", label: "On sale", options: yesNo },
    { name: "userLimit", kind: "text", label: "Members (group access)", optional: true, maxLength: 6 },
    {
      name: "gracePeriodDays",
      kind: "text",
      label: "Grace period (days)",
      required: true,
      maxLength: 2,
      hint: "After a failed renewal charge, the reader keeps reading this long and is asked to update their card.",
    },
    {
      name: "chargeRetryDays",
      kind: "text",
      label: "Retry a failed charge after (days)",
      optional: true,
      maxLength: 40,
      hint: "Days after the failure, such as 1, 3, 5; each before the grace period ends. Empty: no retries.",
    },
    { name: "description", kind: "textarea", label: "Description", wide: true, maxLength: 5000 },
    {
      name: "assetIds",
      kind: "checkboxes",
      label: "Assets it grants",
      hint: "Besides its group's assets.",
      useOptions: useAssetOptions,
      emptyText: "No assets yet.",
    },
    {
      name: "additionalAssetIds",
      kind: "checkboxes",
      label: "Additional assets",
      useOptions: useAssetOptions,
      emptyText: "No assets yet.",
    },
    {
      name: "displayAssetIds",
      kind: "checkboxes",
      label: "Display assets",
      hint: "Shown on the paywall; grant nothing.",
      useOptions: useAssetOptions,
      emptyText: "No assets yet.",
    },
  ],
  emptyValues: () => ({
    groupId: "",
    title: "",
    description: "",
    durationLength: "1",
    durationUnit: "months",
    priceCents: "",
    priceCurrency: "USD",
    otherPrices: "",
    // Most plans sold are subscriptions that renew.
    recurring: "yes",
    maxTrialPeriodLength: "",
    maxTrialPeriodUnit: "days",
    enabled: "yes",
    userLimit: "",
    chargeRetryDays: "",
    gracePeriodDays: "7",
    assetIds: "",
    additionalAssetIds: "",
    displayAssetIds: "",
  }),
  validate: (v) =>
    problems({
      priceCents: amountProblem(v.priceCents, v.priceCurrency),
      otherPrices: priceListProblem(v.otherPrices, v.priceCurrency),
      durationLength: wholeProblem(v.durationLength, 4),
      userLimit: v.userLimit === "" ? undefined : wholeProblem(v.userLimit, 6),
      gracePeriodDays: wholeProblem(v.gracePeriodDays, 2),
      chargeRetryDays: retryDaysProblem(v.chargeRetryDays),
      maxTrialPeriodLength:
        v.maxTrialPeriodLength.trim() === ""
          ? undefined
          : (wholeProblem(v.maxTrialPeriodLength, 4) ??
            (v.recurring === "yes" ? undefined : "Only a plan that renews automatically has a trial")),
    }),
  create: {
    schema: ZCreatePlanInput,
    toInput: (v) => ({ groupId: Number(v.groupId), ...planInput(v) }),
  },
  update: {
    schema: ZUpdatePlanInput,
    toValues: (p) => ({
      groupId: String(p.subscription_group_id),
      title: p.title,
      description: p.description,
      durationLength: String(p.duration_length),
      durationUnit: p.duration_unit,
      priceCents: centsToDecimal(p.price_cents, p.price_currency),
      priceCurrency: p.price_currency,
      otherPrices: priceListOf(p.prices, p.price_currency),
      recurring: p.recurring ? "yes" : "no",
      maxTrialPeriodLength: p.trial_period_enabled ? String(p.max_trial_period_length ?? "") : "",
      maxTrialPeriodUnit: p.max_trial_period_unit ?? "days",
      enabled: p.enabled ? "yes" : "no",
      userLimit: p.user_limit === null ? "" : String(p.user_limit),
      chargeRetryDays: Array.isArray(p.charge_retry_days) ? p.charge_retry_days.join(", ") : "",
      gracePeriodDays: String(p.grace_period_days),
      assetIds: joinIds(p.assets),
      additionalAssetIds: joinIds(p.additional_assets),
      displayAssetIds: joinIds(p.display_assets),
    }),
    toInput: (v, p) => ({ id: p.id, ...planInput(v) }),
  },
  remove: {
    toInput: (p) => ({ id: p.id }),
    confirm: (p) => ({ title: `Delete the plan "${p.title}"?`, body: "It is no longer sold or listed." }),
  },
});

export const GroupManager = () => <ResourceManager config={groups} />;
export const PlanManager = () => <ResourceManager config={plans} />;
