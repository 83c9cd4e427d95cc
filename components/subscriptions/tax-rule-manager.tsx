"use client";

/**
 * The tax rules in the dashboard (REVENUE staff), a ResourceManager: a rate typed as a percentage
 * ("7.25") and sent as basis points, for a country and region or everywhere.
 */
import { crud, defineManager, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { ZCreateTaxRuleInput, ZUpdateTaxRuleInput } from "@/server/subscriptions/catalogue/catalogue.schema";
import { centsToDecimal, decimalToCents } from "@/server/subscriptions/money.schema";

import { listAll, orNull, problems, yesNo } from "./form-helpers";

type TaxValues = FormValues & { name: string; rate: string; country: string; region: string; inclusive: string };

const percentToBasisPoints = (text: string) => decimalToCents(text, "USD");

/** The tax rule's fields as the procedures take them (create and update alike). */
function taxInput(v: TaxValues) {
  return {
    name: v.name,
    rateBasisPoints: percentToBasisPoints(v.rate) ?? -1,
    country: orNull(v.country),
    region: orNull(v.region),
    inclusive: v.inclusive === "yes",
  };
}

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
    toInput: taxInput,
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
    toInput: (v, t) => ({ id: t.id, ...taxInput(v) }),
  },
  remove: { toInput: (t) => ({ id: t.id }) },
});

export const TaxRuleManager = () => <ResourceManager config={taxes} />;
