/**
 * The collections of another site's content API (docs/migration.md, "From another content API"),
 * read for the import: the API lists none (`GET /api/v1/collections/{slug}` reads one by its slug),
 * so the slugs come from
 * - the operator (`--collections home,politics`): one not on the site is a problem line;
 * - "home", the front page's collection by the content API's convention: not there, nothing said;
 * - the stories' sections' collections (`sections[].collection.slug`), as the stories are listed;
 * - the collections found in the items of those read (nested collections), to any depth.
 *
 * Each is read whole, page by page (`limit=100&offset=…` until `total-count`; an automated one's
 * first page only: its items are its rules' answer), and kept: collections are few and their items
 * ids. They are yielded children first (a nested collection before the one holding it), so a
 * parent's plan finds its children made; a loop of collections is broken where it closes, noted.
 *
 * An automated collection's rules name the old site's sections and authors by id: they are read
 * here as slugs (the listed stories' sections and authors say which id is which slug), and the plan
 * finds the account's sections and authors by slug (collection-plan.ts).
 */
import type { Hash } from "node:crypto";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import type { FileProblem } from "../types";
import { getJson, type FetchOptions } from "./content-api-fetch";

/** The most items read of one collection (pages of 100). */
const MAX_ITEMS = 10_000;
/** The most collections read from one site. */
const MAX_COLLECTIONS = 1_000;
/** The home collection's slug, by convention. */
const HOME_COLLECTION = "home";

type ContentCollectionItem =
  | { type: "story"; storyId: string; associatedMetadata: Record<string, unknown> }
  | { type: "collection"; slug: string; associatedMetadata: Record<string, unknown> };

/** Rules of an automated collection, by slugs rather than the old site's ids. */
type ContentCollectionRules = {
  sectionSlugs?: string[];
  authorSlugs?: string[];
  tagSlugs?: string[];
  storyTemplates?: string[];
  sort?: "published-at" | "last-published-at";
};

export type ContentCollection = {
  slug: string;
  name: string;
  summary: string;
  template: string;
  automated: boolean;
  rules: ContentCollectionRules;
  metadata: Record<string, unknown>;
  items: ContentCollectionItem[];
  /** What is wrong with it (a rule naming an id no listed story names): a refusal. */
  errors: string[];
  /** Choices made on the operator's behalf (an item left out). */
  notes: string[];
};

const ZMeta = z.record(z.string(), z.unknown());
const ZWireCollection = z
  .object({
    slug: z.string().min(1).max(300),
    name: z.string().max(500),
    summary: z.string().max(10_000).nullish(),
    template: z.string().max(200).nullish(),
    automated: z.boolean().nullish(),
    rules: ZMeta.nullish(),
    "total-count": z.number().int().nonnegative().nullish(),
    items: z.array(z.unknown()).max(1_000),
    metadata: ZMeta.nullish(),
    "updated-at": z.number().nullish(),
  })
  .loose();
const ZWireItem = z.union([
  z
    .object({
      type: z.literal("story"),
      id: z.union([z.string().min(1).max(100), z.number().int()]),
      "associated-metadata": ZMeta.nullish(),
    })
    .loose(),
  z
    .object({
      type: z.literal("collection"),
      slug: z.string().min(1).max(300),
      "associated-metadata": ZMeta.nullish(),
    })
    .loose(),
]);

/** What the first read of the stories learnt that collections need. */
type CollectionClues = {
  /** Section collections' slugs the stories name. */
  slugs: Set<string>;
  /** The old site's section and author ids, as slugs. */
  sectionSlugs: Map<string, string>;
  authorSlugs: Map<string, string>;
};

export const newClues = (): CollectionClues => ({ slugs: new Set(), sectionSlugs: new Map(), authorSlugs: new Map() });

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Learn from one listed story (still unchecked): its sections' collections, its sections' and authors' ids. */
export function learnFromStory(clues: CollectionClues, raw: unknown): void {
  const story = record(raw);
  for (const s of Array.isArray(story.sections) ? story.sections : []) {
    const section = record(s);
    if ((typeof section.id === "number" || typeof section.id === "string") && typeof section.slug === "string") {
      clues.sectionSlugs.set(String(section.id), section.slug);
    }
    const slug = record(section.collection).slug;
    if (typeof slug === "string" && slug && clues.slugs.size < MAX_COLLECTIONS) clues.slugs.add(slug);
  }
  for (const a of Array.isArray(story.authors) ? story.authors : []) {
    const author = record(a);
    if ((typeof author.id === "number" || typeof author.id === "string") && typeof author.slug === "string") {
      clues.authorSlugs.set(String(author.id), author.slug);
    }
  }
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0) : undefined;

/** An automated collection's rules by slugs; errors for the ids no listed story names. */
function rulesOf(rules: Record<string, unknown>, clues: CollectionClues, errors: string[]): ContentCollectionRules {
  const bySlug = (key: string, names: Map<string, string>, what: string) => {
    const listed = ownValue(rules, key);
    const ids = Array.isArray(listed) ? (listed as unknown[]) : undefined;
    if (!ids) return undefined;
    const unknown = ids.filter((id) => !names.has(String(id)));
    if (unknown.length > 0) {
      errors.push(`its rules name ${what} ${unknown.slice(0, 5).join(", ")}, which no listed story names`);
    }
    return ids.flatMap((id) => names.get(String(id)) ?? []);
  };
  const sort = rules.sort === "published-at" || rules.sort === "last-published-at" ? rules.sort : undefined;
  const out: ContentCollectionRules = {
    sectionSlugs: bySlug("section-ids", clues.sectionSlugs, "the section ids"),
    authorSlugs: bySlug("author-ids", clues.authorSlugs, "the author ids"),
    tagSlugs: strings(rules["tag-slugs"]),
    storyTemplates: strings(rules["story-templates"]),
    sort,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

type Read = { collection: ContentCollection; children: string[] } | null;

/** One collection, all its pages; null when the site has no collection of this slug. */
async function readOne(
  base: URL,
  slug: string,
  options: FetchOptions & { pageSize: number },
  clues: CollectionClues,
  hash: Hash,
): Promise<Read> {
  const url = (offset: number) => {
    const u = new URL(`api/v1/collections/${encodeURIComponent(slug)}`, base);
    u.searchParams.set("limit", String(options.pageSize));
    u.searchParams.set("offset", String(offset));
    return u;
  };
  const first = await getJson(url(0), options, "null");
  if (first === null) return null;
  const parsed = ZWireCollection.safeParse(first);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`its answer is not a collection (${issue?.path.join(".") || "(collection)"} ${issue?.message})`);
  }
  const wire = parsed.data;
  hash.update(`\ncollection ${slug} ${String(wire["updated-at"])}`);
  const errors: string[] = [];
  const notes: string[] = [];
  const automated = wire.automated ?? false;
  const rawItems = [...wire.items];
  const total = Math.min(wire["total-count"] ?? rawItems.length, MAX_ITEMS);
  if (!automated) {
    while (rawItems.length < total) {
      const next = ZWireCollection.safeParse(await getJson(url(rawItems.length), options, "null"));
      if (!next.success || next.data.items.length === 0) break;
      rawItems.push(...next.data.items);
    }
    if ((wire["total-count"] ?? 0) > MAX_ITEMS) notes.push(`only its first ${MAX_ITEMS} items are imported`);
  }
  const items: ContentCollectionItem[] = [];
  if (!automated) {
    for (const raw of rawItems) {
      const item = ZWireItem.safeParse(raw);
      if (!item.success) {
        const type = record(raw).type;
        notes.push(`an item of type "${typeof type === "string" ? type : "?"}" is left out`);
        continue;
      }
      const associatedMetadata = item.data["associated-metadata"] ?? {};
      items.push(
        item.data.type === "story"
          ? { type: "story", storyId: String(item.data.id), associatedMetadata }
          : { type: "collection", slug: item.data.slug, associatedMetadata },
      );
    }
  }
  return {
    collection: {
      slug: wire.slug,
      name: wire.name || wire.slug,
      summary: wire.summary ?? "",
      template: wire.template || "default",
      automated,
      rules: automated ? rulesOf(wire.rules ?? {}, clues, errors) : {},
      metadata: wire.metadata ?? {},
      items,
      errors,
      notes,
    },
    children: items.flatMap((i) => (i.type === "collection" ? [i.slug] : [])),
  };
}

/**
 * Read the collections `named` by the operator, "home", and those the clues and the collections
 * read name (see the file's comment), children first. `hash` takes what changes them (the
 * digest a resumed run compares).
 */
export async function readCollections(
  base: URL,
  options: FetchOptions & { pageSize: number },
  args: { named: readonly string[]; clues: CollectionClues; hash: Hash },
): Promise<{ collections: ContentCollection[]; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  const read = new Map<string, Read>();
  const named = new Set(args.named);
  const queue = [...new Set([...args.named, HOME_COLLECTION, ...args.clues.slugs])];
  while (queue.length > 0 && read.size < MAX_COLLECTIONS) {
    const slug = queue.shift()!;
    if (read.has(slug)) continue;
    let found: Read;
    try {
      found = await readOne(base, slug, options, args.clues, args.hash);
    } catch (error) {
      problems.push({ where: `collection ${slug}`, message: error instanceof Error ? error.message : String(error) });
      read.set(slug, null);
      continue;
    }
    read.set(slug, found);
    if (!found) {
      if (named.has(slug))
        problems.push({ where: `collection ${slug}`, message: "the site has no collection of this slug" });
      continue;
    }
    for (const child of found.children) if (!read.has(child)) queue.push(child);
  }
  // Children first: a depth-first walk that yields a collection once its children are out.
  const ordered: ContentCollection[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (slug: string) => {
    const found = read.get(slug);
    if (!found || state.get(slug) === "done") return;
    state.set(slug, "open");
    for (const child of found.children) {
      if (state.get(child) === "open") {
        found.collection.notes.push(`its item "${child}" holds it in turn (a loop): left out`);
        found.collection.items = found.collection.items.filter((i) => !(i.type === "collection" && i.slug === child));
      } else {
        visit(child);
      }
    }
    state.set(slug, "done");
    ordered.push(found.collection);
  };
  for (const slug of read.keys()) visit(slug);
  return { collections: ordered, problems };
}
