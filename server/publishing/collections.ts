/**
 * Collections as the content API returns them (GET /api/v1/collections/{slug}, bulk requests of
 * `_type: "collection"`).
 *
 * - Manual collections list their CollectionItem rows in position order: stories (published
 *   ones only) and nested collections (not deleted). Nested collections come back as items with
 *   their slug; the client fetches their own items through bulk.
 * - Automated collections evaluate their rules (ZStoredCollectionRules) over the publisher's published
 *   stories, newest first (or by last publication). A section's collection (Section.collectionId)
 *   with no section rule lists that section.
 * - `total-count` counts every item that matches (item-type and exclude-story-ids applied), not
 *   just the page.
 */
import "server-only";

import { ProcessCache } from "../cache/process-cache";
import type { Db } from "../db/client";
import type { Collection, Prisma } from "../generated/prisma/client";
import { ZStoredCollectionRules, type TCollectionQuery, type TStoredCollectionRules } from "./content.schema";
import {
  loadWireStories,
  orderByFor,
  publishedWhere,
  sectionFamilyIds,
  storyTags,
  type ContentContext,
} from "./stories";
import { ms, type WireStory } from "./story-view";
import { fromKept, KEPT_COLUMNS, KEPT_JOINS, type KeptRow } from "./story-wire";

type WireCollection = Record<string, unknown>;
type CollectionResult = { collection: WireCollection; tags: string[] };

type CollectionRow = Prisma.CollectionGetPayload<{ include: { sectionOf: { select: { id: true } } } }>;

/**
 * The fields every view of a collection begins with, in this order (the content API's answers keep
 * it): here, in /api/v1/entity/{id}/collections and in the dashboard's collection summaries.
 */
export function collectionHead(row: Pick<Collection, "id" | "slug" | "name" | "summary" | "template" | "automated">) {
  const { id, slug, name, summary, template, automated } = row;
  return { id, slug, name, summary, template, automated };
}

/**
 * Collections by account and slug (null: none), kept in the process until a collection or a
 * section's collection changes anywhere (the database announces it: topic "collections").
 */
const bySlug = new ProcessCache<string, CollectionRow | null>("collections", { ttlMs: 60_000, maxEntries: 10_000 });

/** The collection with its page of items, or null when the slug is unknown (or deleted). */
export async function getPublishedCollection(
  db: Db,
  { ctx, slug, query: q }: { ctx: ContentContext; slug: string; query: TCollectionQuery },
): Promise<CollectionResult | null> {
  const row = await bySlug.load(`${ctx.accountId} ${slug}`, () =>
    db.collection.findUnique({
      where: { accountId_slug: { accountId: ctx.accountId, slug } },
      include: { sectionOf: { select: { id: true } } },
    }),
  );
  if (!row || row.deletedAt) return null;
  return row.automated ? automatedCollection(db, ctx, row, q) : manualCollection(db, ctx, row, q);
}

/** A manual collection's item of the page (null columns: none) and the count of all that match. */
type ItemRow = KeptRow & {
  total: number;
  item_id: number | null;
  story_id: string | null;
  associated_metadata: unknown;
  child_id: number | null;
  child_name: string | null;
  child_slug: string | null;
  child_template: string | null;
};

/**
 * A manual collection's page of items: one statement reads the items that match (published
 * stories not excluded, live nested collections, as item-type asks), their count, and for the
 * page's stories their kept wire forms (story-wire.ts).
 */
async function manualCollection(
  db: Db,
  ctx: ContentContext,
  row: CollectionRow,
  q: TCollectionQuery,
): Promise<CollectionResult> {
  const rows = await db.$queryRaw<ItemRow[]>`
    WITH matching AS (
      SELECT ci.id, ci.position, ci.story_id, ci.child_collection_id, ci.associated_metadata
        FROM collection_items ci
        LEFT JOIN stories s ON s.id = ci.story_id AND s.account_id = ${ctx.accountId} AND s.status = 'published'
        LEFT JOIN collections c ON c.id = ci.child_collection_id AND c.account_id = ${ctx.accountId} AND c.deleted_at IS NULL
       WHERE ci.collection_id = ${row.id}
         AND ((${q.itemType !== "collection"} AND s.id IS NOT NULL AND NOT s.id = ANY(${q.excludeStoryIds}::uuid[]))
           OR (${q.itemType !== "story"} AND c.id IS NOT NULL))
    ), page AS (
      SELECT * FROM matching ORDER BY position, id LIMIT ${q.limit} OFFSET ${q.offset}
    )
    SELECT t.total, p.id AS item_id, p.story_id::text AS story_id, p.associated_metadata,
           c.id AS child_id, c.name AS child_name, c.slug AS child_slug, c.template AS child_template, ${KEPT_COLUMNS}
      FROM (SELECT count(*)::int AS total FROM matching) t
      LEFT JOIN page p ON true
      LEFT JOIN collections c ON c.id = p.child_collection_id
      LEFT JOIN stories s ON s.id = p.story_id
      ${KEPT_JOINS}
     ORDER BY p.position, p.id`;
  const items = rows.filter((r) => r.item_id !== null);
  const stories = await fromKept(
    db,
    ctx.view,
    items.filter((r) => r.story_id !== null),
    q.storyFields,
  );
  const byId = new Map(stories.map((s) => [s.id as string, s]));
  const wireItems = items.flatMap((item): Record<string, unknown>[] => {
    if (item.child_id !== null) {
      return [
        {
          id: item.child_id,
          type: "collection",
          name: item.child_name,
          slug: item.child_slug,
          template: item.child_template,
          "associated-metadata": item.associated_metadata ?? {},
        },
      ];
    }
    const story = item.story_id ? byId.get(item.story_id) : undefined;
    return story ? [storyItem(story, item.associated_metadata)] : [];
  });
  const childTags = items.flatMap((i) => (i.child_id !== null ? [`c/${i.child_id}`] : []));
  return {
    collection: toWire(ctx, row, {}, rows[0]?.total ?? 0, wireItems),
    tags: [`c/${row.id}`, ...childTags, ...storyTags(stories)],
  };
}

/**
 * What an automated collection's rules select now: the filter of the published stories they match
 * and their order, and the sections they name (a section's collection without a section rule: that
 * section). The content API and the newsletter digest (server/newsletters/digest.ts) both read it.
 */
export async function automatedCollectionStories(
  db: Db,
  accountId: number,
  row: Pick<Collection, "rules"> & { sectionOf: { id: number } | null },
  excludeStoryIds: readonly string[] = [],
): Promise<{
  where: Prisma.StoryWhereInput;
  orderBy: Prisma.StoryOrderByWithRelationInput[];
  sectionIds: number[] | undefined;
}> {
  const rules: TStoredCollectionRules = ZStoredCollectionRules.parse(row.rules);
  const sectionIds = rules["section-ids"] ?? (row.sectionOf ? [row.sectionOf.id] : undefined);
  const and: Prisma.StoryWhereInput[] = [publishedWhere(accountId)];
  if (sectionIds)
    and.push({
      sections: { some: { sectionId: { in: await sectionFamilyIds(db, accountId, { ids: sectionIds }) } } },
    });
  if (rules["tag-slugs"]) and.push({ tags: { some: { tag: { accountId, slug: { in: rules["tag-slugs"] } } } } });
  if (rules["author-ids"]) and.push({ authors: { some: { authorId: { in: rules["author-ids"] } } } });
  if (rules["story-templates"]) and.push({ storyTemplate: { in: rules["story-templates"] } });
  if (excludeStoryIds.length > 0) and.push({ id: { notIn: [...excludeStoryIds] } });
  const orderBy = orderByFor(rules.sort === "last-published-at" ? "last-published" : "published");
  return { where: { AND: and }, orderBy, sectionIds };
}

async function automatedCollection(
  db: Db,
  ctx: ContentContext,
  row: CollectionRow,
  q: TCollectionQuery,
): Promise<CollectionResult> {
  const { where, orderBy, sectionIds } = await automatedCollectionStories(db, ctx.accountId, row, q.excludeStoryIds);
  const cacheKeys = (sectionIds ?? []).map((id) => `sc/${ctx.view.publisherId}/${id}`);
  if (q.itemType === "collection") {
    return { collection: toWire(ctx, row, { sectionIds }, 0, [], cacheKeys), tags: [`c/${row.id}`, "stories"] };
  }
  const [total, stories] = await Promise.all([
    db.story.count({ where }),
    loadWireStories(db, ctx, {
      where,
      orderBy,
      take: q.limit,
      skip: q.offset,
      fields: q.storyFields,
    }),
  ]);
  return {
    collection: toWire(
      ctx,
      row,
      { sectionIds },
      total,
      stories.map((s) => storyItem(s, {})),
      cacheKeys,
    ),
    // "stories": any publication may change what an automated collection lists.
    tags: [`c/${row.id}`, "stories", ...storyTags(stories)],
  };
}

function storyItem(story: WireStory, associatedMetadata: unknown): Record<string, unknown> {
  return { id: story.id, type: "story", story, "associated-metadata": associatedMetadata ?? {} };
}

function toWire(
  ctx: ContentContext,
  row: CollectionRow,
  effective: { sectionIds?: number[] },
  total: number,
  items: Record<string, unknown>[],
  extraCacheKeys: string[] = [],
): WireCollection {
  const rules =
    row.automated && effective.sectionIds && !ZStoredCollectionRules.parse(row.rules)["section-ids"]
      ? { ...(row.rules as object), "section-ids": effective.sectionIds }
      : row.rules;
  return {
    ...collectionHead(row),
    rules: rules ?? {},
    "total-count": total,
    items,
    "collection-cache-keys": [`c/${ctx.view.publisherId}/${row.id}`, ...extraCacheKeys],
    "created-at": ms(row.createdAt),
    "updated-at": ms(row.updatedAt),
    metadata: row.metadata ?? {},
  };
}
