"use client";

/**
 * The subscriptions catalogue in the dashboard (REVENUE staff): groups, plans, coupons and tax
 * rules, each a ResourceManager. Prices are typed as decimal amounts ("9.99") and sent as integer
 * cents (server/subscriptions/money.ts: no floating-point money).
 */
import { useQuery } from "@tanstack/react-query";

import { defineManager, type FormValues } from "@/components/manager/config";
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
  ZUpdateGroupInput,
  ZUpdatePlanInput,
  ZUpdateTaxRuleInput,
} from "@/server/subscriptions/catalogue.schema";
import { centsToDecimal, decimalToCents } from "@/server/subscriptions/money.schema";

const listAll = () => undefined;
const yesNo = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
] as const;
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v.replace("_", " ") }));
const amountProblem = (amount: string, currency: string) =>
  decimalToCents(amount, currency || "USD") === null ? "Enter an amount such as 9.99" : undefined;
const cents = (amount: string, currency: string) => decimalToCents(amount, currency || "USD") ?? -1;
/** Only the fields with a problem (the form treats every key as one). */
const problems = (found: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(found).filter(([, issue]) => issue !== undefined)) as Record<string, string>;
const orNull = (text: string) => (text.trim() ? text.trim() : null);

// ─── Groups ─────────────────────────────────────────────────────────────────────────────────

type GroupValues = FormValues & {
  name: string;
  description: string;
  subscriptionType: string;
  public: string;
  currency: string;
  target: string;
};

const groups = defineManager({
  procedures: (trpc) => ({
    list: trpc.subscriptions.groups.list,
    create: trpc.subscriptions.groups.create,
    update: trpc.subscriptions.groups.update,
    delete: trpc.subscriptions.groups.delete,
  }),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<GroupValues>({
  noun: { one: "group", many: "subscription groups" },
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
    { name: "description", kind: "textarea", label: "Description", wide: true, maxLength: 5000 },
    {
      name: "currency",
      kind: "text",
      label: "Campaign currency",
      optional: true,
      maxLength: 3,
      hint: "Campaigns only, e.g. USD",
    },
    { name: "target", kind: "text", label: "Campaign target", optional: true, hint: "Campaigns only, e.g. 50000.00" },
  ],
  emptyValues: () => ({
    name: "",
    description: "",
    subscriptionType: "standard",
    public: "yes",
    currency: "",
    target: "",
  }),
  validate: (v) => problems({ target: v.target.trim() ? amountProblem(v.target, v.currency) : undefined }),
  create: {
    schema: ZCreateGroupInput,
    toInput: (v) => ({
      name: v.name,
      description: v.description,
      subscriptionType: v.subscriptionType as (typeof SUBSCRIPTION_TYPES)[number],
      public: v.public === "yes",
      currency: orNull(v.currency),
      targetAmountCents: v.target.trim() ? cents(v.target, v.currency) : null,
    }),
  },
  update: {
    schema: ZUpdateGroupInput,
    toValues: (g) => ({
      name: g.name,
      description: g.description,
      subscriptionType: g.subscription_type,
      public: g.public ? "yes" : "no",
      currency: "currency" in g && typeof g.currency === "string" ? g.currency : "",
      target:
        "target_amount_cents" in g && typeof g.target_amount_cents === "number"
          ? centsToDecimal(g.target_amount_cents, String(g.currency ?? "USD"))
          : "",
    }),
    toInput: (v, g) => ({
      id: g.id,
      name: v.name,
      description: v.description,
      subscriptionType: v.subscriptionType as (typeof SUBSCRIPTION_TYPES)[number],
      public: v.public === "yes",
      currency: orNull(v.currency),
      targetAmountCents: v.target.trim() ? cents(v.target, v.currency) : null,
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
  price: string;
  priceCurrency: string;
  recurring: string;
  enabled: string;
  userLimit: string;
};

const plans = defineManager({
  procedures: (trpc) => ({
    list: trpc.subscriptions.plans.list,
    create: trpc.subscriptions.plans.create,
    update: trpc.subscriptions.plans.update,
    delete: trpc.subscriptions.plans.delete,
  }),
  listInput: listAll,
  rows: (data) => ({ rows: data.plans }),
}).with<PlanValues>({
  alsoInvalidate: (trpc) => [trpc.subscriptions.groups.list],
  noun: { one: "plan", many: "plans" },
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
    { name: "price", kind: "text", label: "Price", required: true, hint: "An amount such as 9.99" },
    { name: "priceCurrency", kind: "text", label: "Currency", required: true, maxLength: 3 },
    { name: "durationLength", kind: "text", label: "Duration", required: true, maxLength: 4 },
    { name: "durationUnit", kind: "select", label: "Unit", options: () => options(DURATION_UNITS) },
    { name: "recurring", kind: "radio", label: "Renews automatically", options: yesNo },
    { name: "enabled", kind: "radio", label: "On sale", options: yesNo },
    { name: "userLimit", kind: "text", label: "Members (group access)", optional: true, maxLength: 6 },
    { name: "description", kind: "textarea", label: "Description", wide: true, maxLength: 5000 },
  ],
  emptyValues: () => ({
    groupId: "",
    title: "",
    description: "",
    durationLength: "1",
    durationUnit: "months",
    price: "",
    priceCurrency: "USD",
    recurring: "no",
    enabled: "yes",
    userLimit: "",
  }),
  validate: (v) =>
    problems({
      price: amountProblem(v.price, v.priceCurrency),
      durationLength: /^\d{1,4}$/.test(v.durationLength) ? undefined : "Enter a whole number",
      userLimit: v.userLimit === "" || /^\d{1,6}$/.test(v.userLimit) ? undefined : "Enter a whole number",
    }),
  create: {
    schema: ZCreatePlanInput,
    toInput: (v) => ({
      groupId: Number(v.groupId),
      title: v.title,
      description: v.description,
      durationLength: Number(v.durationLength),
      durationUnit: v.durationUnit as (typeof DURATION_UNITS)[number],
      priceCents: cents(v.price, v.priceCurrency),
      priceCurrency: v.priceCurrency,
      recurring: v.recurring === "yes",
      enabled: v.enabled === "yes",
      userLimit: v.userLimit ? Number(v.userLimit) : null,
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
      price: centsToDecimal(p.price_cents, p.price_currency),
      priceCurrency: p.price_currency,
      recurring: p.recurring ? "yes" : "no",
      enabled: p.enabled ? "yes" : "no",
      userLimit: p.user_limit === null ? "" : String(p.user_limit),
    }),
    toInput: (v, p) => ({
      id: p.id,
      title: v.title,
      description: v.description,
      durationLength: Number(v.durationLength),
      durationUnit: v.durationUnit as (typeof DURATION_UNITS)[number],
      priceCents: cents(v.price, v.priceCurrency),
      priceCurrency: v.priceCurrency,
      recurring: v.recurring === "yes",
      enabled: v.enabled === "yes",
      userLimit: v.userLimit ? Number(v.userLimit) : null,
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
  percentOff: string;
  validFrom: string;
  validUntil: string;
  maxRedemptions: string;
};

const coupons = defineManager({
  procedures: (trpc) => ({
    list: trpc.subscriptions.coupons.list,
    create: trpc.subscriptions.coupons.create,
    delete: trpc.subscriptions.coupons.delete,
  }),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<CouponValues>({
  noun: { one: "coupon", many: "coupons" },
  rowId: (c) => c.id,
  rowLabel: (c) => c.code,
  columns: [
    { header: "Code", cell: (c) => c.code },
    {
      header: "Discount",
      cell: (c) =>
        c.discountType === "percent"
          ? `${c.percentOff} %`
          : `${centsToDecimal(c.amountOffCents ?? 0, c.amountCurrency ?? "USD")} ${c.amountCurrency}`,
    },
    { header: "Valid", cell: (c) => `${c.validFrom.slice(0, 10)} – ${c.validUntil?.slice(0, 10) ?? "…"}` },
    { header: "Used", cell: (c) => `${c.redemptionsCount}${c.maxRedemptions ? ` / ${c.maxRedemptions}` : ""}` },
  ],
  fields: [
    { name: "code", kind: "text", label: "Code", required: true, maxLength: 32, mono: true },
    { name: "title", kind: "text", label: "Title", maxLength: 200, optional: true },
    { name: "percentOff", kind: "text", label: "Percent off", required: true, maxLength: 3, hint: "1 to 100" },
    { name: "maxRedemptions", kind: "text", label: "Uses in all", optional: true, maxLength: 8 },
    { name: "validFrom", kind: "text", label: "Valid from", required: true, placeholder: "YYYY-MM-DD" },
    { name: "validUntil", kind: "text", label: "Valid until", optional: true, placeholder: "YYYY-MM-DD" },
  ],
  emptyValues: () => ({
    code: "",
    title: "",
    percentOff: "10",
    validFrom: new Date().toISOString().slice(0, 10),
    validUntil: "",
    maxRedemptions: "",
  }),
  validate: (v) =>
    problems({
      percentOff: /^\d{1,3}$/.test(v.percentOff) ? undefined : "Enter a whole number from 1 to 100",
      validFrom: /^\d{4}-\d{2}-\d{2}$/.test(v.validFrom) ? undefined : "Enter a date as YYYY-MM-DD",
      validUntil: !v.validUntil || /^\d{4}-\d{2}-\d{2}$/.test(v.validUntil) ? undefined : "Enter a date as YYYY-MM-DD",
      maxRedemptions: !v.maxRedemptions || /^\d{1,8}$/.test(v.maxRedemptions) ? undefined : "Enter a whole number",
    }),
  create: {
    schema: ZCreateCouponInput,
    toInput: (v) => ({
      code: v.code,
      title: v.title,
      discountType: "percent" as const,
      percentOff: Number(v.percentOff),
      validFrom: `${v.validFrom}T00:00:00Z`,
      validUntil: v.validUntil ? `${v.validUntil}T00:00:00Z` : null,
      maxRedemptions: v.maxRedemptions ? Number(v.maxRedemptions) : null,
    }),
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
  procedures: (trpc) => ({
    list: trpc.subscriptions.taxRules.list,
    create: trpc.subscriptions.taxRules.create,
    update: trpc.subscriptions.taxRules.update,
    delete: trpc.subscriptions.taxRules.delete,
  }),
  listInput: listAll,
  rows: (data) => ({ rows: data }),
}).with<TaxValues>({
  noun: { one: "tax rule", many: "tax rules" },
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
