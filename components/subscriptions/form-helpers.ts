"use client";

/**
 * What the revenue catalogue's forms share: money typed as a decimal amount ("9.99") and sent as
 * integer cents (server/subscriptions/money.schema.ts: no floating-point money), whole numbers and
 * days checked before sending, and the account's assets, plans and groups as checkbox options.
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import type { SelectOption } from "@/components/ui";
import { decimalToCents, minorUnits } from "@/server/subscriptions/money.schema";

export const listAll = () => undefined;

export const yesNo = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
] as const;

export const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v.replaceAll("_", " ") }));

/** The problem of a decimal amount in `currency` (USD's two decimals while the currency is not typed yet). */
export const amountProblem = (amount: string, currency: string) =>
  decimalToCents(amount, currency.trim() || "USD") === null
    ? `Enter an amount such as ${minorUnits(currency.trim() || "USD") === 0 ? "900" : "9.99"}`
    : undefined;

/** The amount in cents; -1 (refused by the schema) when it is not an amount. */
export const cents = (amount: string, currency: string) => decimalToCents(amount, currency.trim() || "USD") ?? -1;

/** A whole number of at most `digits` digits. */
export const wholeProblem = (text: string, digits: number, message = "Enter a whole number") =>
  new RegExp(`^\\d{1,${digits}}$`).test(text.trim()) ? undefined : message;

/** A day as the date input gives it (YYYY-MM-DD), and a real one. */
export const dateProblem = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
    ? undefined
    : "Enter a date as YYYY-MM-DD";

/** Only the fields with a problem (the form treats every key as one). */
export const problems = (found: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(found).filter(([, issue]) => issue !== undefined)) as Record<string, string>;

export const orNull = (text: string) => (text.trim() ? text.trim() : null);

/** Linked rows' ids as a checkboxes field's value. */
export const joinIds = (rows: readonly { id: number }[]) => rows.map((r) => r.id).join(",");

/** The account's assets, as checkbox options ("Premium stories (story, level 1000)"). */
export function useAssetOptions(): SelectOption[] {
  const trpc = useTRPC();
  const assets = useQuery(trpc.subscriptions.assets.list.queryOptions());
  return (assets.data ?? []).map((a) => ({ value: a.id, label: `${a.title} (${assetKind(a)})` }));
}

/** "site", "static", "story, level 1000". */
function assetKind(asset: { type: string; metadata: unknown }): string {
  const level = accessLevelOf(asset.metadata);
  return asset.type === "story" && level !== null ? `story, level ${level}` : asset.type;
}

/** metadata.access_level of a story asset, when it is a number. */
export function accessLevelOf(metadata: unknown): number | null {
  if (typeof metadata !== "object" || metadata === null) return null;
  const level = (metadata as Record<string, unknown>).access_level;
  return typeof level === "number" ? level : null;
}

/** The account's live plans, as checkbox options ("Monthly – Digital access"). */
export function usePlanOptions(): SelectOption[] {
  const trpc = useTRPC();
  const plans = useQuery(trpc.subscriptions.plans.list.queryOptions());
  return (plans.data?.plans ?? []).map((p) => ({ value: p.id, label: `${p.title} – ${p.group_name}` }));
}

/** The account's live groups, as checkbox options. */
export function useGroupOptions(): SelectOption[] {
  const trpc = useTRPC();
  const groups = useQuery(trpc.subscriptions.groups.list.queryOptions());
  return (groups.data ?? []).map((g) => ({ value: g.id, label: g.name }));
}
