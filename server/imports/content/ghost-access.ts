/**
 * Who may read a Ghost post after the move (docs/migration.md, "Ghost posts → stories"): its
 * `visibility` as the story's access, and Ghost's tiers (the export's `products`) as Masthead
 * access levels (Story.accessLevelValue; a plan's `story` asset with `metadata.access_level` L
 * reads stories whose level is at most L: server/subscriptions/access/access-rule.ts). Pure.
 *
 * - public → public; members → login; paid → subscription (any paying subscriber).
 * - tiers (the post's rows in `posts_products`, or its own `tiers` list): when the free tier is
 *   among them, login; else subscription at the access level of the cheapest tier listed.
 * - A tier's access level: its rank by monthly price among the export's paid tiers, archived ones
 *   too (1 = the cheapest; tiers of one price share a level; a tier without a price ranks above
 *   all priced ones). The monthly price is the tier's `monthly_price`, else its monthly Stripe
 *   price's amount, else a twelfth of its yearly one. Levels are ordered, Ghost's tier lists are
 *   not: a dearer tier the post did not list reads it too, which its note says.
 * - Any other visibility: subscription (closed, not open), said in the report.
 */
import { ownValue } from "@/server/own-keys";

import type { ContentAccess } from "./records";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const rowsOf = (data: Json, name: string): Json[] => {
  const list = ownValue(data, name);
  return Array.isArray(list) ? list.filter(isObj) : [];
};

type Tier = { name: string; free: boolean; level: number };

/** The export's tiers by Ghost id, with their access levels; and each post's tiers. */
export type GhostTiers = { tiers: Map<string, Tier>; postTiers: Map<string, string[]> };

const cents = (v: unknown): number | null => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : null;
};

/** A tier's monthly price in cents, or null when the export does not say. */
function monthlyPrice(product: Json, prices: Map<string, Json>): number | null {
  const monthly = cents(product.monthly_price) ?? cents(prices.get(str(product.monthly_price_id))?.amount);
  if (monthly !== null) return monthly;
  const yearly = cents(product.yearly_price) ?? cents(prices.get(str(product.yearly_price_id))?.amount);
  return yearly === null ? null : Math.round(yearly / 12);
}

/** The tiers of the export (see the file's comment). */
export function ghostTiers(data: Json): GhostTiers {
  const prices = new Map(rowsOf(data, "stripe_prices").map((p) => [str(p.id), p]));
  const products = rowsOf(data, "products").filter((p) => str(p.id));
  const paid = products
    .filter((p) => p.type !== "free")
    .map((p) => ({ id: str(p.id), name: str(p.name) || str(p.slug), price: monthlyPrice(p, prices) }));
  // Dense rank by price; tiers without a price after every priced one.
  const keys = [...new Set(paid.map((p) => p.price ?? Number.POSITIVE_INFINITY))].sort((a, b) => a - b);
  const tiers = new Map<string, Tier>();
  for (const p of paid) {
    tiers.set(p.id, { name: p.name, free: false, level: keys.indexOf(p.price ?? Number.POSITIVE_INFINITY) + 1 });
  }
  for (const p of products.filter((p) => p.type === "free")) {
    tiers.set(str(p.id), { name: str(p.name) || "Free", free: true, level: 0 });
  }
  const postTiers = new Map<string, string[]>();
  const links = [...rowsOf(data, "posts_products")].sort(
    (a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0),
  );
  for (const link of links) {
    const post = str(link.post_id);
    if (post) postTiers.set(post, [...(postTiers.get(post) ?? []), str(link.product_id)]);
  }
  return { tiers, postTiers };
}

type GhostAccess = { access: ContentAccess; accessLevelValue: number | null; notes: string[] };

const SIMPLE = new Map<string, ContentAccess>([
  ["public", "public"],
  ["members", "login"],
  ["paid", "subscription"],
]);

/** The ids of a post's tiers: its posts_products rows, else its own `tiers` list (ids or {id}). */
function tierIdsOf(row: Json, tiers: GhostTiers): string[] {
  const linked = tiers.postTiers.get(str(row.id));
  if (linked?.length) return linked;
  const own = Array.isArray(row.tiers) ? row.tiers : [];
  return own.map((t) => (isObj(t) ? str(t.id) : str(t))).filter(Boolean);
}

/** A post for some tiers (see the file's comment). */
function tiersAccess(row: Json, tiers: GhostTiers): GhostAccess {
  const ids = new Set(tierIdsOf(row, tiers));
  const listed = [...ids].flatMap((id) => {
    const tier = tiers.tiers.get(id);
    return tier ? [tier] : [];
  });
  if (listed.some((t) => t.free)) {
    return {
      access: "login",
      accessLevelValue: null,
      notes: ["for Ghost tiers including the free one: imported for logged-in readers"],
    };
  }
  if (listed.length === 0) {
    return {
      access: "subscription",
      accessLevelValue: null,
      notes: ["for Ghost tiers the export does not list: imported for every paying subscriber"],
    };
  }
  const level = Math.min(...listed.map((t) => t.level));
  const names = new Set(listed.map((t) => t.name));
  const others = [...tiers.tiers].flatMap(([id, t]) => (!t.free && t.level >= level && !ids.has(id) ? [t] : []));
  const notes = [
    `for Ghost tiers ${[...names].join(", ")}: access level ${level} (plans whose story asset has access_level ${level} or more read it)`,
  ];
  if (others.length) notes.push(`Ghost tiers ${others.map((t) => t.name).join(", ")}, not listed, read it too`);
  return { access: "subscription", accessLevelValue: level, notes };
}

/** The story's access for a post's `visibility` (see the file's comment). */
export function ghostAccess(row: Json, tiers: GhostTiers): GhostAccess {
  const visibility = str(row.visibility) || "public";
  const simple = SIMPLE.get(visibility);
  if (simple) return { access: simple, accessLevelValue: null, notes: [] };
  if (visibility === "tiers") return tiersAccess(row, tiers);
  return {
    access: "subscription",
    accessLevelValue: null,
    notes: [`its visibility "${visibility.slice(0, 60)}" is not known: imported for paying subscribers`],
  };
}
