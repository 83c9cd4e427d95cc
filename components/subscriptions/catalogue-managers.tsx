"use client";

/**
 * The subscriptions catalogue in the dashboard (REVENUE staff): groups, plans, coupons and tax
 * rules, each a ResourceManager. Prices are typed as decimal amounts ("9.99") and sent as integer
 * cents (server/subscriptions/money.ts: no floating-point money).
 */
import { useQuery } from "@tanstack/react-query";

import { crud, defineManager, idsOf, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { useTRPC } from "@/components/trpc/react";
import { Select } from "@/components/ui";
import {
  DURATION_UNITS,
  SUBSCRIPTION_TYPES,
  ZCreateCouponInput,
  ZCreateGroupInput,
  ZCreatePlanInput,
  ZCreateTaxRuleInput,
  ZUpdateCouponInput,
  ZUpdateGroupInput,
  ZUpdatePlanInput,
  ZUpdateTaxRuleInput,
} from "@/server/subscriptions/catalogue.schema";
import { centsToDecimal, decimalToCents } from "@/server/subscriptions/money.schema";

import {
  amountProblem,
  cents,
  dateProblem,
  joinIds,
  listAll,
  options,
  orNull,
  problems,
  useAssetOptions,
  useGroupOptions,
  usePlanOptions,
  wholeProblem,
  yesNo,
} from "./form-helpers";

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
      hint: "Yes: a switch between one-time plans applies at once, the unused days credited. No: every switch waits for the end of the period paid for.",
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
    toInput: (v) => ({
      name: v.name,
      description: v.description,
      subscriptionType: v.subscriptionType as (typeof SUBSCRIPTION_TYPES)[number],
      public: v.public === "yes",
      prorationEnabled: v.prorationEnabled === "yes",
      currency: orNull(v.currency),
      targetAmountCents: v.targetAmountCents.trim() ? cents(v.targetAmountCents, v.currency) : null,
      assetIds: idsOf(v.assetIds),
    }),
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
    toInput: (v, g) => ({
      id: g.id,
      name: v.name,
      description: v.description,
      subscriptionType: v.subscriptionType as (typeof SUBSCRIPTION_TYPES)[number],
      public: v.public === "yes",
      prorationEnabled: v.prorationEnabled === "yes",
      currency: orNull(v.currency),
      targetAmountCents: v.targetAmountCents.trim() ? cents(v.targetAmountCents, v.currency) : null,
      assetIds: idsOf(v.assetIds),
    }),
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
  recurring: string;
  enabled: string;
  userLimit: string;
  assetIds: string;
  additionalAssetIds: string;
  displayAssetIds: string;
};

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
      cell: (p) => `${centsToDecimal(p.price_cents, p.price_currency)} ${p.price_currency}`,
    },
    {
      header: "Duration",
      cell: (p) => (p.duration_unit === "lifetime" ? "Lifetime" : `${p.duration_length} ${p.duration_unit}`),
    },
    { header: "Status", cell: (p) => (p.enabled ? (p.recurring ? "On, recurring" : "On") : "Off") },
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
    { name: "durationLength", kind: "text", label: "Duration", required: true, maxLength: 4 },
    { name: "durationUnit", kind: "select", label: "Unit", options: () => options(DURATION_UNITS) },
    { name: "recurring", kind: "radio", label: "Renews automatically", options: yesNo },
    { name: "enabled", kind: "radio", label: "On sale", options: yesNo },
    { name: "userLimit", kind: "text", label: "Members (group access)", optional: true, maxLength: 6 },
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
    recurring: "no",
    enabled: "yes",
    userLimit: "",
    assetIds: "",
    additionalAssetIds: "",
    displayAssetIds: "",
  }),
  validate: (v) =>
    problems({
      priceCents: amountProblem(v.priceCents, v.priceCurrency),
      durationLength: wholeProblem(v.durationLength, 4),
      userLimit: v.userLimit === "" ? undefined : wholeProblem(v.userLimit, 6),
    }),
  create: {
    schema: ZCreatePlanInput,
    toInput: (v) => ({
      groupId: Number(v.groupId),
      title: v.title,
      description: v.description,
      durationLength: Number(v.durationLength),
      durationUnit: v.durationUnit as (typeof DURATION_UNITS)[number],
      priceCents: cents(v.priceCents, v.priceCurrency),
      priceCurrency: v.priceCurrency,
      recurring: v.recurring === "yes",
      enabled: v.enabled === "yes",
      userLimit: v.userLimit ? Number(v.userLimit) : null,
      assetIds: idsOf(v.assetIds),
      additionalAssetIds: idsOf(v.additionalAssetIds),
      displayAssetIds: idsOf(v.displayAssetIds),
    }),
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
      recurring: p.recurring ? "yes" : "no",
      enabled: p.enabled ? "yes" : "no",
      userLimit: p.user_limit === null ? "" : String(p.user_limit),
      assetIds: joinIds(p.assets),
      additionalAssetIds: joinIds(p.additional_assets),
      displayAssetIds: joinIds(p.display_assets),
    }),
    toInput: (v, p) => ({
      id: p.id,
      title: v.title,
      description: v.description,
      durationLength: Number(v.durationLength),
      durationUnit: v.durationUnit as (typeof DURATION_UNITS)[number],
      priceCents: cents(v.priceCents, v.priceCurrency),
      priceCurrency: v.priceCurrency,
      recurring: v.recurring === "yes",
      enabled: v.enabled === "yes",
      userLimit: v.userLimit ? Number(v.userLimit) : null,
      assetIds: idsOf(v.assetIds),
      additionalAssetIds: idsOf(v.additionalAssetIds),
      displayAssetIds: idsOf(v.displayAssetIds),
    }),
  },
  remove: {
    toInput: (p) => ({ id: p.id }),
    confirm: (p) => ({ title: `Delete the plan "${p.title}"?`, body: "It is no longer sold or listed." }),
  },
});

// ─── Coupons ────────────────────────────────────────────────────────────────────────────────

type CouponValues = FormValues & {
  code: string;
  title: string;
  discountType: string;
  percentOff: string;
  /** A decimal amount in amountCurrency; sent as cents. */
  amountOffCents: string;
  amountCurrency: string;
  validFrom: string;
  validUntil: string;
  maxRedemptions: string;
  maxRedemptionsPerSubscriber: string;
  planIds: string;
  groupIds: string;
  enabled: string;
};

type CouponRow = { discountType: "percent" | "fixed"; percentOff: number | null; amountOffCents: number | null };
const isFixed = (v: { discountType: string }) => v.discountType === "fixed";
const discountOf = (c: CouponRow & { amountCurrency: string | null }) =>
  c.discountType === "percent"
    ? `${c.percentOff} %`
    : `${centsToDecimal(c.amountOffCents ?? 0, c.amountCurrency ?? "USD")} ${c.amountCurrency}`;
/** A date field's day as the start of that day in UTC ("2026-12-01" → "2026-12-01T00:00:00Z"). */
const dayStart = (day: string) => `${day}T00:00:00Z`;

/** The coupon's fields as the procedures take them (create and update alike). */
function couponFields(v: CouponValues) {
  const fixed = isFixed(v);
  return {
    title: v.title,
    discountType: fixed ? ("fixed" as const) : ("percent" as const),
    percentOff: fixed ? null : Number(v.percentOff),
    amountOffCents: fixed ? cents(v.amountOffCents, v.amountCurrency) : null,
    amountCurrency: fixed ? orNull(v.amountCurrency) : null,
    validFrom: dayStart(v.validFrom),
    validUntil: v.validUntil ? dayStart(v.validUntil) : null,
    maxRedemptions: v.maxRedemptions ? Number(v.maxRedemptions) : null,
    maxRedemptionsPerSubscriber: v.maxRedemptionsPerSubscriber ? Number(v.maxRedemptionsPerSubscriber) : null,
    planIds: idsOf(v.planIds),
    groupIds: idsOf(v.groupIds),
    enabled: v.enabled === "yes",
  };
}

const coupons = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.coupons),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<CouponValues>({
  noun: { one: "coupon", many: "coupons" },
  // The list procedures take no search: a search box would filter nothing.
  search: false,
  rowId: (c) => c.id,
  rowLabel: (c) => c.code,
  columns: [
    { header: "Code", cell: (c) => c.code },
    { header: "Discount", cell: discountOf },
    { header: "Valid", cell: (c) => `${c.validFrom.slice(0, 10)} – ${c.validUntil?.slice(0, 10) ?? "…"}` },
    {
      header: "Redeemed",
      cell: (c) => `${c.redemptionsCount}${c.maxRedemptions ? ` of ${c.maxRedemptions}` : ""}`,
    },
    {
      header: "For",
      cell: (c) =>
        c.planIds.length || c.groupIds.length
          ? [
              c.planIds.length ? `${c.planIds.length} plan${c.planIds.length > 1 ? "s" : ""}` : "",
              c.groupIds.length ? `${c.groupIds.length} group${c.groupIds.length > 1 ? "s" : ""}` : "",
            ]
              .filter(Boolean)
              .join(", ")
          : "Every plan",
    },
    { header: "Status", cell: (c) => (c.enabled ? "On" : "Off") },
  ],
  fields: [
    { name: "code", kind: "text", label: "Code", required: true, maxLength: 32, mono: true, only: "create" },
    { name: "title", kind: "text", label: "Title", maxLength: 200, optional: true },
    {
      name: "discountType",
      kind: "radio",
      label: "Discount",
      options: [
        { value: "percent", label: "A percentage" },
        { value: "fixed", label: "A fixed amount" },
      ],
    },
    {
      name: "percentOff",
      kind: "text",
      label: "Percent off",
      required: true,
      maxLength: 3,
      hint: "1 to 100",
      when: (v) => !isFixed(v),
    },
    {
      name: "amountOffCents",
      kind: "text",
      label: "Amount off",
      required: true,
      hint: "An amount such as 5.00",
      when: isFixed,
    },
    {
      name: "amountCurrency",
      kind: "text",
      label: "Currency",
      required: true,
      maxLength: 3,
      hint: "e.g. USD",
      when: isFixed,
    },
    { name: "validFrom", kind: "text", type: "date", label: "Valid from", required: true, placeholder: "YYYY-MM-DD" },
    {
      name: "validUntil",
      kind: "text",
      type: "date",
      label: "Valid until",
      optional: true,
      placeholder: "YYYY-MM-DD",
      hint: "Not valid from this day on",
    },
    { name: "maxRedemptions", kind: "text", label: "Uses in all", optional: true, maxLength: 8 },
    { name: "maxRedemptionsPerSubscriber", kind: "text", label: "Uses per subscriber", optional: true, maxLength: 4 },
    { name: "enabled", kind: "radio", label: "Can be redeemed", options: yesNo },
    {
      name: "planIds",
      kind: "checkboxes",
      label: "Only for these plans",
      hint: "None chosen here or below: every plan.",
      useOptions: usePlanOptions,
      emptyText: "No plans yet.",
    },
    {
      name: "groupIds",
      kind: "checkboxes",
      label: "Only for these groups",
      useOptions: useGroupOptions,
      emptyText: "No groups yet.",
    },
  ],
  emptyValues: () => ({
    code: "",
    title: "",
    discountType: "percent",
    percentOff: "10",
    amountOffCents: "",
    amountCurrency: "USD",
    validFrom: new Date().toISOString().slice(0, 10),
    validUntil: "",
    maxRedemptions: "",
    maxRedemptionsPerSubscriber: "",
    planIds: "",
    groupIds: "",
    enabled: "yes",
  }),
  validate: (v) =>
    problems({
      percentOff: isFixed(v) ? undefined : wholeProblem(v.percentOff, 3, "Enter a whole number from 1 to 100"),
      amountOffCents: isFixed(v) ? amountProblem(v.amountOffCents, v.amountCurrency) : undefined,
      validFrom: dateProblem(v.validFrom),
      validUntil: v.validUntil ? dateProblem(v.validUntil) : undefined,
      maxRedemptions: v.maxRedemptions ? wholeProblem(v.maxRedemptions, 8) : undefined,
      maxRedemptionsPerSubscriber: v.maxRedemptionsPerSubscriber
        ? wholeProblem(v.maxRedemptionsPerSubscriber, 4)
        : undefined,
    }),
  create: {
    schema: ZCreateCouponInput,
    toInput: (v) => ({ code: v.code, ...couponFields(v) }),
  },
  update: {
    schema: ZUpdateCouponInput,
    toValues: (c) => ({
      code: c.code,
      title: c.title,
      discountType: c.discountType,
      percentOff: c.percentOff === null ? "" : String(c.percentOff),
      amountOffCents: c.amountOffCents === null ? "" : centsToDecimal(c.amountOffCents, c.amountCurrency ?? "USD"),
      amountCurrency: c.amountCurrency ?? "USD",
      validFrom: c.validFrom.slice(0, 10),
      validUntil: c.validUntil?.slice(0, 10) ?? "",
      maxRedemptions: c.maxRedemptions === null ? "" : String(c.maxRedemptions),
      maxRedemptionsPerSubscriber: c.maxRedemptionsPerSubscriber === null ? "" : String(c.maxRedemptionsPerSubscriber),
      planIds: c.planIds.join(","),
      groupIds: c.groupIds.join(","),
      enabled: c.enabled ? "yes" : "no",
    }),
    toInput: (v, c) => {
      const fields = couponFields(v);
      // An unchanged day keeps the stored instant (a coupon made through the API may start mid-day).
      if (v.validFrom === c.validFrom.slice(0, 10)) fields.validFrom = c.validFrom;
      if (c.validUntil && v.validUntil === c.validUntil.slice(0, 10)) fields.validUntil = c.validUntil;
      return { id: c.id, ...fields };
    },
  },
  remove: {
    toInput: (c) => ({ id: c.id }),
    confirm: (c) => ({ title: `Delete the coupon ${c.code}?`, body: "Its code is not reused." }),
  },
});

// ─── Tax rules ──────────────────────────────────────────────────────────────────────────────

type TaxValues = FormValues & { name: string; rate: string; country: string; region: string; inclusive: string };

const percentToBasisPoints = (text: string) => decimalToCents(text, "USD");

const taxes = defineManager({
  procedures: (trpc) => crud(trpc.subscriptions.taxRules),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<TaxValues>({
  noun: { one: "tax rule", many: "tax rules" },
  // The list procedures take no search: a search box would filter nothing.
  search: false,
  rowId: (t) => t.id,
  rowLabel: (t) => t.name,
  rowTestId: "tax-row",
  columns: [
    { header: "Name", cell: (t) => t.name },
    { header: "Rate", cell: (t) => `${centsToDecimal(t.rateBasisPoints, "USD")} %` },
    { header: "Where", cell: (t) => [t.country ?? "Everywhere", t.region].filter(Boolean).join(" / ") },
    { header: "Prices", cell: (t) => (t.inclusive ? "Include it" : "Exclude it") },
  ],
  fields: [
    { name: "name", kind: "text", label: "Name", required: true, maxLength: 50 },
    { name: "rate", kind: "text", label: "Rate (%)", required: true, hint: "e.g. 18 or 7.25" },
    {
      name: "country",
      kind: "text",
      label: "Country",
      optional: true,
      maxLength: 2,
      hint: "Two letters, e.g. IN; empty: everywhere",
    },
    { name: "region", kind: "text", label: "Region", optional: true, maxLength: 10 },
    { name: "inclusive", kind: "radio", label: "Plan prices include it", options: yesNo },
  ],
  emptyValues: () => ({ name: "", rate: "", country: "", region: "", inclusive: "no" }),
  validate: (v) => {
    const bp = percentToBasisPoints(v.rate);
    return problems({
      rate: bp === null || bp > 10_000 ? "Enter a percentage from 0 to 100 with at most 2 decimals" : undefined,
    });
  },
  create: {
    schema: ZCreateTaxRuleInput,
    toInput: (v) => ({
      name: v.name,
      rateBasisPoints: percentToBasisPoints(v.rate) ?? -1,
      country: orNull(v.country),
      region: orNull(v.region),
      inclusive: v.inclusive === "yes",
    }),
  },
  update: {
    schema: ZUpdateTaxRuleInput,
    toValues: (t) => ({
      name: t.name,
      rate: centsToDecimal(t.rateBasisPoints, "USD"),
      country: t.country ?? "",
      region: t.region ?? "",
      inclusive: t.inclusive ? "yes" : "no",
    }),
    toInput: (v, t) => ({
      id: t.id,
      name: v.name,
      rateBasisPoints: percentToBasisPoints(v.rate) ?? -1,
      country: orNull(v.country),
      region: orNull(v.region),
      inclusive: v.inclusive === "yes",
    }),
  },
  remove: { toInput: (t) => ({ id: t.id }) },
});

export const GroupManager = () => <ResourceManager config={groups} />;
export const PlanManager = () => <ResourceManager config={plans} />;
export const CouponManager = () => <ResourceManager config={coupons} />;
export const TaxRuleManager = () => <ResourceManager config={taxes} />;
