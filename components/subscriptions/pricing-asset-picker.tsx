"use client";

/**
 * The stories or collections a pricing plan prices (the plan's "Which ones" field), kept in the
 * form as a JSON array of ids.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, SearchInput, useFieldControl } from "@/components/ui";
import type { PRICING_ASSET_TYPES } from "@/server/subscriptions/catalogue/catalogue.schema";

export const parseIds = (value: string): string[] => {
  try {
    const ids: unknown = JSON.parse(value || "[]");
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
};

export const plural = (type: string) => (type === "story" ? "stories" : "collections");

/**
 * The stories or collections a pricing plan prices: a search box (the field's own control) with
 * its results to add, and the chosen ones to remove. None chosen: the plan prices every one.
 */
export function PricingAssetPicker({
  assetType,
  value,
  onChange,
}: {
  assetType: (typeof PRICING_ASSET_TYPES)[number];
  value: string;
  onChange: (value: string) => void;
}) {
  const trpc = useTRPC();
  const field = useFieldControl();
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  const chosen = parseIds(value);
  const results = useQuery({
    ...trpc.subscriptions.pricingPlans.searchAssets.queryOptions({ assetType, q: q || undefined }),
    placeholderData: keepPreviousData,
  });
  const labels = useQuery({
    ...trpc.subscriptions.pricingPlans.searchAssets.queryOptions({ assetType, ids: chosen }),
    enabled: chosen.length > 0,
    placeholderData: keepPreviousData,
  });
  const titleOf = (id: string) => labels.data?.assets.find((a) => a.id === id)?.title ?? id;
  const set = (ids: string[]) => onChange(JSON.stringify(ids));
  const found = (results.data?.assets ?? []).filter((a) => !chosen.includes(a.id));

  return (
    <div className="space-y-2">
      {chosen.length ? (
        <ul className="space-y-1" aria-label={`Chosen ${plural(assetType)}`} data-testid="chosen-assets">
          {chosen.map((id) => (
            <li key={id} className="flex items-center justify-between gap-2 rounded-md bg-gray-50 px-2 py-1 text-sm">
              <span className="min-w-0 truncate">{titleOf(id)}</span>
              <Button size="sm" onClick={() => set(chosen.filter((c) => c !== id))}>
                Remove<span className="sr-only"> {titleOf(id)}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-600">None chosen: the plan prices every one of the {plural(assetType)}.</p>
      )}
      <SearchInput
        id={field?.id}
        aria-describedby={field?.describedBy}
        placeholder={`Search ${plural(assetType)}…`}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <ul className="max-h-48 space-y-1 overflow-y-auto" aria-label={`Matching ${plural(assetType)}`}>
        {found.map((asset) => (
          <li key={asset.id} className="flex items-center justify-between gap-2 text-sm" data-testid="asset-result">
            <span className="min-w-0">
              <span className="block truncate">{asset.title}</span>
              <span className="block truncate text-xs text-gray-500">{asset.detail}</span>
            </span>
            <Button size="sm" onClick={() => set([...chosen, asset.id])}>
              Add<span className="sr-only"> {asset.title}</span>
            </Button>
          </li>
        ))}
        {results.data && found.length === 0 ? (
          <li className="text-sm text-gray-500">
            {results.data.assets.length ? "Every match is chosen." : `No ${plural(assetType)} match.`}
          </li>
        ) : null}
      </ul>
    </div>
  );
}
