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

import type { Db } from "../db/client";
import type { Collection, Prisma } from "../generated/prisma/client";
import { ZStoredCollectionRules, type TCollectionQuery, type TStoredCollectionRules } from "./content.schema";
import {
  loadWireStories,
  loadWireStoriesByIds,
  orderByFor,
  publishedWhere,
  sectionFamilyIds,
  storyTags,
  type ContentContext,
} from "./stories";
import { ms, type WireStory } from "./story-view";

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

/** The collection with its page of items, or null when the slug is unknown (or deleted). */
export async function getPublishedCollection(
  db: Db,
  { ctx, slug, query: q }: { ctx: ContentContext; slug: string; query: TCollectionQuery },
): Promise<CollectionResult | null> {
  const row = await db.collection.findUnique({
    where: { accountId_slug: { accountId: ctx.accountId, slug } },
    include: { sectionOf: { select: { id: true } } },
  });
  if (!row || row.deletedAt) return null;
  return row.automated ? automatedCollection(db, ctx, row, q) : manualCollection(db, ctx, row, q);
}

async function manualCollection(
  db: Db,
  ctx: ContentContext,
  row: CollectionRow,
  q: TCollectionQuery,
): Promise<CollectionResult> {
  const kinds: Prisma.CollectionItemWhereInput[] = [];
  if (q.itemType !== "collection") {
    kinds.push({
      story: {
        ...publishedWhere(ctx.accountId),
        ...(q.excludeStoryIds.length > 0 ? { id: { notIn: q.excludeStoryIds } } : {}),
      },
    });
  }
  if (q.itemType !== "story") kinds.push({ childCollection: { accountId: ctx.accountId, deletedAt: null } });
  const where: Prisma.CollectionItemWhereInput = { collectionId: row.id, OR: kinds };

  const [total, items] = await Promise.all([
    db.collectionItem.count({ where }),
    db.collectionItem.findMany({
      where,
      orderBy: [{ position: "asc" }, { id: "asc" }],
      skip: q.offset,
      take: q.limit,
      select: {
        storyId: true,
        associatedMetadata: true,
        childCollection: { select: { id: true, name: true, slug: true, template: true } },
      },
    }),
  ]);
  const stories = await loadWireStoriesByIds(
    db,
    ctx,
    items.flatMap((i) => (i.storyId ? [i.storyId] : [])),
    q.storyFields,
  );
  const byId = new Map(stories.map((s) => [s.id as string, s]));
  const wireItems = items.flatMap((item): Record<string, unknown>[] => {
    if (item.childCollection) {
      const child = item.childCollection;
      return [
        {
          id: child.id,
          type: "collection",
          name: child.name,
          slug: child.slug,
          template: child.template,
          "associated-metadata": item.associatedMetadata ?? {},
        },
      ];
    }
    const story = item.storyId ? byId.get(item.storyId) : undefined;
    return story ? [storyItem(story, item.associatedMetadata)] : [];
  });
  const childTags = items.flatMap((i) => (i.childCollection ? [`c/${i.childCollection.id}`] : []));
  return {
    collection: toWire(ctx, row, {}, total, wireItems),
    tags: [`c/${row.id}`, ...childTags, ...storyTags(stories)],
  };
}

async function automatedCollection(
  db: Db,
  ctx: ContentContext,
  row: CollectionRow,
  q: TCollectionQuery,
): Promise<CollectionResult> {
  const rules: TStoredCollectionRules = ZStoredCollectionRules.parse(row.rules);
  const sectionIds = rules["section-ids"] ?? (row.sectionOf ? [row.sectionOf.id] : undefined);
  const and: Prisma.StoryWhereInput[] = [publishedWhere(ctx.accountId)];
  if (sectionIds)
    and.push({
      sections: { some: { sectionId: { in: await sectionFamilyIds(db, ctx.accountId, { ids: sectionIds }) } } },
    });
  if (rules["tag-slugs"])
    and.push({ tags: { some: { tag: { accountId: ctx.accountId, slug: { in: rules["tag-slugs"] } } } } });
  if (rules["author-ids"]) and.push({ authors: { some: { authorId: { in: rules["author-ids"] } } } });
  if (rules["story-templates"]) and.push({ storyTemplate: { in: rules["story-templates"] } });
  if (q.excludeStoryIds.length > 0) and.push({ id: { notIn: q.excludeStoryIds } });

  const cacheKeys = (sectionIds ?? []).map((id) => `sc/${ctx.view.publisherId}/${id}`);
  if (q.itemType === "collection") {
    return { collection: toWire(ctx, row, { sectionIds }, 0, [], cacheKeys), tags: [`c/${row.id}`, "stories"] };
  }
  const where: Prisma.StoryWhereInput = { AND: and };
  const [total, stories] = await Promise.all([
    db.story.count({ where }),
    loadWireStories(db, ctx, {
      where,
      orderBy: orderByFor(rules.sort === "last-published-at" ? "last-published" : "published"),
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
