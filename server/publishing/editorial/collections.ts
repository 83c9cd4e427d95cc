/**
 * Collections in the dashboard: lists of stories and collections that front ends lay out (home
 * page, section pages, widgets). Vocabulary:
 * - manual collection: editors choose the items and their order (CollectionItem rows);
 * - automated collection: `rules` choose published stories (the read API evaluates them); its
 *   items, if it had any while manual, are kept but not served, so switching back restores them;
 * - section collection: the automated collection every section owns (rules {"section-ids":[id]},
 *   slug "section-<slug>"), created and removed with the section (taxonomy.ts).
 *
 * Every function is scoped to the actor's account (another account's id is NOT_FOUND), writes
 * the audit log, and, for every change to a collection, records the CONTENT webhook event
 * "collection-update" in the same transaction (delivered once it commits).
 *
 * Invariant: a collection never contains itself, directly or through nested collections (422),
 * so readers that expand nested collections always terminate.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { emitWebhookEvent } from "../../webhooks/deliveries";
import { collectionHead } from "../collections";
import { assertImageRefsAllowed, collectImageRefs } from "./image-refs";
import {
  ZCollectionRules,
  ZCreateCollectionInput,
  ZListCollectionsInput,
  ZPickStoriesInput,
  ZSetCollectionItemsInput,
  ZUpdateCollectionInput,
  type TCollectionRules,
  type TCreateCollectionInput,
  type TListCollectionsInput,
  type TPickStoriesInput,
  type TSetCollectionItemsInput,
  type TUpdateCollectionInput,
} from "./organise.schema";
import { cleanMetadataOrThrow } from "./sanitize";
import {
  assertSlugChangeFree,
  assertSlugFree,
  changedBy,
  COLLECTION_ITEMS_LOCK,
  defined,
  deletedSlug,
  lockNesting,
  lockRows,
  searchWhere,
  slugFromName,
} from "./shared";

// ─── Pure rules ──────────────────────────────────────────────────────────────────────────────

/**
 * The first child of `collectionId` (among `childIds`) through which the collection would
 * contain itself, given the current nesting `edges` (parent id → child ids), or null.
 */
export function findCollectionCycle(
  collectionId: number,
  childIds: readonly number[],
  edges: ReadonlyMap<number, readonly number[]>,
): number | null {
  for (const child of childIds) {
    if (child === collectionId) return child;
    const seen = new Set<number>();
    const stack = [child];
    while (stack.length) {
      const current = stack.pop()!;
      if (current === collectionId) return child;
      if (seen.has(current)) continue;
      seen.add(current);
      // (The collection's own current items are never followed: reaching it already returned.)
      stack.push(...(edges.get(current) ?? []));
    }
  }
  return null;
}

// ─── Views ───────────────────────────────────────────────────────────────────────────────────

const COLLECTION_SELECT = {
  id: true,
  slug: true,
  name: true,
  summary: true,
  template: true,
  automated: true,
  rules: true,
  metadata: true,
  createdAt: true,
  updatedAt: true,
  sectionOf: { select: { id: true, name: true } },
  _count: { select: { items: true } },
} satisfies Prisma.CollectionSelect;

type CollectionRow = Prisma.CollectionGetPayload<{ select: typeof COLLECTION_SELECT }>;

export type CollectionSummary = {
  id: number;
  slug: string;
  name: string;
  summary: string;
  template: string;
  automated: boolean;
  rules: TCollectionRules;
  metadata: Record<string, unknown>;
  itemCount: number;
  /** The section this collection belongs to (section collections only). */
  section: { id: number; name: string } | null;
  createdAt: Date;
  updatedAt: Date;
};

export type CollectionItemView =
  | {
      type: "story";
      storyId: string;
      headline: string;
      slug: string;
      status: string;
      associatedMetadata: Record<string, unknown>;
    }
  | {
      type: "collection";
      collectionId: number;
      name: string;
      slug: string;
      automated: boolean;
      associatedMetadata: Record<string, unknown>;
    };

export type CollectionDetail = CollectionSummary & { items: CollectionItemView[] };

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Stored rules as the schema reads them; rules stored by older code that no longer parse read as none. */
function readRules(value: unknown): TCollectionRules {
  const parsed = ZCollectionRules.safeParse(value);
  return parsed.success ? parsed.data : {};
}

function toSummary(row: CollectionRow): CollectionSummary {
  return {
    ...collectionHead(row),
    rules: readRules(row.rules),
    metadata: asObject(row.metadata),
    itemCount: row._count.items,
    section: row.sectionOf ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function getOwnedCollection(db: Db, actor: Actor, id: number): Promise<CollectionRow> {
  const row = await db.collection.findFirst({
    where: { id, accountId: actor.accountId, deletedAt: null },
    select: COLLECTION_SELECT,
  });
  if (!row) throw new AppError("NOT_FOUND", "Collection not found.");
  return row;
}

async function loadItems(db: Db, collectionId: number): Promise<CollectionItemView[]> {
  const items = await db.collectionItem.findMany({
    where: { collectionId },
    orderBy: { position: "asc" },
    select: {
      storyId: true,
      childCollectionId: true,
      associatedMetadata: true,
      story: { select: { headline: true, slug: true, status: true } },
      childCollection: { select: { name: true, slug: true, automated: true, deletedAt: true } },
    },
  });
  const views: CollectionItemView[] = [];
  for (const item of items) {
    const associatedMetadata = asObject(item.associatedMetadata);
    if (item.storyId && item.story) {
      views.push({
        type: "story",
        storyId: item.storyId,
        headline: item.story.headline,
        slug: item.story.slug,
        status: item.story.status.toLowerCase(),
        associatedMetadata,
      });
    } else if (item.childCollectionId && item.childCollection && !item.childCollection.deletedAt) {
      const child = item.childCollection;
      views.push({
        type: "collection",
        collectionId: item.childCollectionId,
        name: child.name,
        slug: child.slug,
        automated: child.automated,
        associatedMetadata,
      });
    }
  }
  return views;
}

// ─── Webhook ─────────────────────────────────────────────────────────────────────────────────

export type CollectionChange = "create" | "update" | "items" | "delete";

/** The audit action of each change to a collection. */
const COLLECTION_AUDIT_ACTIONS = {
  create: "collection.create",
  update: "collection.update",
  items: "collection.set_items",
  delete: "collection.delete",
} as const satisfies Record<CollectionChange, string>;

/** A change to a collection made here: its audit entry (with `audit` as metadata), then its event. */
async function recordCollectionChange(
  tx: Db,
  args: Parameters<typeof emitCollectionUpdate>[1] & { audit: Prisma.InputJsonObject },
): Promise<void> {
  const { audit, ...event } = args;
  await recordAudit(tx, {
    actor: event.actor,
    action: COLLECTION_AUDIT_ACTIONS[event.change],
    targetType: "collection",
    targetId: event.collectionId,
    metadata: audit,
    now: event.now,
  });
  await emitCollectionUpdate(tx, event);
}

/**
 * Record "collection-update" for the collection as it is now (inside the change's transaction).
 * Data: {collection: {id, slug, name, automated, rules, items: [{type, id}]}, change, "changed-by", "purge-keys"}.
 */
export async function emitCollectionUpdate(
  tx: Db,
  args: {
    actor: Actor;
    collectionId: number;
    change: CollectionChange;
    now: Date;
    /** The slug it was served under, when it was just freed. */ slug?: string;
  },
): Promise<void> {
  const { actor } = args;
  const collection = await tx.collection.findFirst({
    where: { id: args.collectionId, accountId: actor.accountId },
    select: { id: true, slug: true, name: true, automated: true, rules: true, deletedAt: true, updatedAt: true },
  });
  if (!collection) return;
  const items = await tx.collectionItem.findMany({
    where: { collectionId: collection.id },
    orderBy: { position: "asc" },
    select: { storyId: true, childCollectionId: true },
  });
  const isSectionCollection = (await tx.section.count({ where: { collectionId: collection.id } })) > 0;
  const data = {
    collection: {
      id: collection.id,
      slug: args.slug ?? collection.slug,
      name: collection.name,
      automated: collection.automated,
      rules: readRules(collection.rules),
      items: items.map((item) =>
        item.storyId ? { type: "story", id: item.storyId } : { type: "collection", id: item.childCollectionId },
      ),
      "updated-at": collection.updatedAt.getTime(),
      "deleted-at": collection.deletedAt ? collection.deletedAt.getTime() : null,
    },
    change: args.change,
    "changed-by": await changedBy(tx, actor),
    // Every response holding this collection carries its key, parents included (they list their
    // children's keys); config lists section collections.
    // "collections": the answers that list collections by what they hold (an entity's collections).
    "purge-keys": [`c/${collection.id}`, "collections", ...(isSectionCollection ? ["config"] : [])],
  };
  await emitWebhookEvent(tx, {
    accountId: actor.accountId,
    kind: "CONTENT",
    name: "collection-update",
    data,
    occurredAt: args.now,
  });
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────

export async function listCollections(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListCollectionsInput,
): Promise<{ collections: CollectionSummary[]; total: number }> {
  const { q, automated, limit, offset } = parseInput(ZListCollectionsInput, input);
  const where: Prisma.CollectionWhereInput = {
    accountId: actor.accountId,
    deletedAt: null,
    ...(automated !== undefined ? { automated } : {}),
    ...searchWhere(q, ["name", "slug"]),
  };
  const [rows, total] = await Promise.all([
    db.collection.findMany({
      where,
      select: COLLECTION_SELECT,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: limit,
      skip: offset,
    }),
    db.collection.count({ where }),
  ]);
  return { collections: rows.map(toSummary), total };
}

export async function getCollection(db: Db, { actor, id }: { actor: Actor; id: number }): Promise<CollectionDetail> {
  const row = await getOwnedCollection(db, actor, id);
  return { ...toSummary(row), items: await loadItems(db, row.id) };
}

/** The story picker of the collection editor: newest first, matching headline or slug words. */
export async function pickStories(db: Db, { actor, ...input }: { actor: Actor } & TPickStoriesInput) {
  const { q, status, limit } = parseInput(ZPickStoriesInput, input);
  const words = (q ?? "").split(/\s+/).filter(Boolean).slice(0, 8);
  const stories = await db.story.findMany({
    where: {
      accountId: actor.accountId,
      ...(status === "published" ? { status: "PUBLISHED" } : {}),
      AND: words.map((word) => ({
        OR: [{ headline: { contains: word, mode: "insensitive" } }, { slug: { contains: word, mode: "insensitive" } }],
      })),
    },
    orderBy: [{ publishedAt: { sort: "desc", nulls: "last" } }, { updatedAt: "desc" }],
    take: limit,
    select: { id: true, headline: true, slug: true, status: true, publishedAt: true },
  });
  return stories.map((s) => ({ ...s, status: s.status.toLowerCase() }));
}

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────

export async function createCollection(
  db: Db,
  args: { actor: Actor; input: TCreateCollectionInput; now: Date },
): Promise<{ collection: CollectionDetail }> {
  const { actor, now } = args;
  const input = parseInput(ZCreateCollectionInput, args.input);
  input.metadata = cleanMetadataOrThrow(input.metadata, "metadata");
  const slug = input.slug ?? slugFromName(input.name);
  return withTransaction(db, async (tx) => {
    await assertSlugFree(tx, "collection", { actor, slug });
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: collectImageRefs(input.metadata, "metadata"),
    });
    const created = await tx.collection.create({
      data: {
        accountId: actor.accountId,
        slug,
        name: input.name,
        summary: input.summary,
        template: input.template,
        metadata: input.metadata as Prisma.InputJsonObject,
        automated: input.automated,
        rules: input.rules,
      },
      select: { id: true },
    });
    await recordCollectionChange(tx, {
      actor,
      collectionId: created.id,
      change: "create",
      now,
      audit: { slug, automated: input.automated },
    });
    return { collection: await getCollection(tx, { actor, id: created.id }) };
  });
}

export async function updateCollection(
  db: Db,
  args: { actor: Actor; input: TUpdateCollectionInput; now: Date },
): Promise<{ collection: CollectionDetail }> {
  const { actor, now } = args;
  const input = parseInput(ZUpdateCollectionInput, args.input);
  input.metadata = cleanMetadataOrThrow(input.metadata, "metadata");
  return withTransaction(db, async (tx) => {
    const current = await getOwnedCollection(tx, actor, input.id);
    await assertSlugChangeFree(tx, "collection", { actor, slug: input.slug, current });
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: collectImageRefs(input.metadata, "metadata"),
      keep: collectImageRefs(current.metadata, "metadata").map((ref) => ref.key),
    });
    await tx.collection.update({
      where: { id: current.id },
      data: {
        ...defined({
          name: input.name,
          slug: input.slug,
          summary: input.summary,
          template: input.template,
          metadata: input.metadata as Prisma.InputJsonObject | undefined,
          automated: input.automated,
          rules: input.rules,
        }),
        updatedAt: now,
      },
    });
    const changed = Object.keys(input).filter((key) => key !== "id");
    await recordCollectionChange(tx, {
      actor,
      collectionId: current.id,
      change: "update",
      now,
      audit: { fields: changed },
    });
    return { collection: await getCollection(tx, { actor, id: current.id }) };
  });
}

/**
 * Replace a manual collection's items with `items`, in that order. Stories and child
 * collections must be the account's; nesting must not make the collection contain itself.
 */
export async function setCollectionItems(
  db: Db,
  args: { actor: Actor; input: TSetCollectionItemsInput; now: Date },
): Promise<{ collection: CollectionDetail }> {
  const { actor, now } = args;
  const input = parseInput(ZSetCollectionItemsInput, args.input);
  input.items.forEach((item, i) => {
    item.associatedMetadata = cleanMetadataOrThrow(item.associatedMetadata, `items.${i}.associatedMetadata`);
  });
  return withTransaction(db, async (tx) => {
    // Two concurrent saves of the same items must run one after the other, or the second's delete
    // misses the first's new rows and the lists merge. (An advisory lock, not the collection's row:
    // deleting a child collection locks item rows before its parents' rows, and so must we.)
    await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${COLLECTION_ITEMS_LOCK}::int, ${input.id}::int)) AS locked`;
    const current = await getOwnedCollection(tx, actor, input.id);
    if (current.automated) {
      throw new AppError(
        "UNPROCESSABLE",
        "This collection is automated: its rules choose its stories. Make it manual to order items by hand.",
      );
    }
    const storyIds = input.items.flatMap((item) => ("storyId" in item ? [item.storyId] : []));
    const childIds = input.items.flatMap((item) => ("collectionId" in item ? [item.collectionId] : []));

    // Nesting changes one at a time, taken before the child collections' rows: two saves nesting A
    // in B and B in A would otherwise each hold one row and wait for the other (a deadlock).
    if (childIds.length) await lockNesting(tx, actor.accountId, "collections");
    // Locked FOR SHARE until the commit (./shared.ts lockRows): a story or collection deleted
    // meanwhile is "no such story/collection" here, or its delete waits and then removes the item.
    const knownStories = await lockRows(tx, "stories", { accountId: actor.accountId, ids: storyIds, mode: "share" });
    const knownChildren = await lockRows(tx, "collections", {
      accountId: actor.accountId,
      ids: childIds.filter((id) => id !== current.id),
      mode: "share",
    });
    const missing = input.items.flatMap((item, index) =>
      "storyId" in item
        ? knownStories.has(item.storyId)
          ? []
          : [{ field: `items.${index}.storyId`, issue: "no such story" }]
        : knownChildren.has(item.collectionId) || item.collectionId === current.id
          ? []
          : [{ field: `items.${index}.collectionId`, issue: "no such collection" }],
    );
    if (missing.length) throw new AppError("NOT_FOUND", "Some items do not exist.", { details: missing });
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: input.items.flatMap((item, i) =>
        collectImageRefs(item.associatedMetadata, `items.${i}.associatedMetadata`),
      ),
    });

    if (childIds.length) {
      const edges = await nestingEdges(tx, actor.accountId);
      const culprit = findCollectionCycle(current.id, childIds, edges);
      if (culprit !== null) {
        const index = input.items.findIndex((item) => "collectionId" in item && item.collectionId === culprit);
        throw new AppError(
          "UNPROCESSABLE",
          culprit === current.id
            ? "A collection cannot contain itself."
            : "That collection already contains this one: nesting it here would make a loop.",
          { details: [{ field: `items.${index}.collectionId`, issue: "would make the collection contain itself" }] },
        );
      }
    }

    await tx.collectionItem.deleteMany({ where: { collectionId: current.id } });
    if (input.items.length) {
      await tx.collectionItem.createMany({
        data: input.items.map((item, position) => ({
          collectionId: current.id,
          position,
          associatedMetadata: (item.associatedMetadata ?? {}) as Prisma.InputJsonObject,
          ...("storyId" in item ? { storyId: item.storyId } : { childCollectionId: item.collectionId }),
        })),
      });
    }
    await tx.collection.update({ where: { id: current.id }, data: { updatedAt: now } });
    await recordCollectionChange(tx, {
      actor,
      collectionId: current.id,
      change: "items",
      now,
      audit: { stories: storyIds.length, collections: childIds.length },
    });
    return { collection: await getCollection(tx, { actor, id: current.id }) };
  });
}

/**
 * Add stories to the end of a manual collection (the stories list's bulk "Add to a collection"),
 * keeping its items. Stories already in it stay where they are; ids that are not the account's
 * stories are left out. One change to the collection (one audit entry, one event), under the
 * same lock as setCollectionItems. Returns which ids were added and which were already there.
 */
export async function appendStoriesToCollection(
  db: Db,
  args: { actor: Actor; collectionId: number; storyIds: readonly string[]; now: Date },
): Promise<{ added: string[]; alreadyIn: string[] }> {
  const { actor, collectionId, now } = args;
  return withTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${COLLECTION_ITEMS_LOCK}::int, ${collectionId}::int)) AS locked`;
    const current = await getOwnedCollection(tx, actor, collectionId);
    if (current.automated) {
      throw new AppError(
        "UNPROCESSABLE",
        "This collection is automated: its rules choose its stories. Make it manual to add stories by hand.",
      );
    }
    const known = await lockRows(tx, "stories", { accountId: actor.accountId, ids: [...args.storyIds], mode: "share" });
    const existing = await tx.collectionItem.findMany({
      where: { collectionId: current.id, storyId: { not: null } },
      select: { storyId: true },
    });
    const inside = new Set(existing.map((item) => item.storyId));
    const wanted = args.storyIds.filter((id) => known.has(id));
    const added = wanted.filter((id) => !inside.has(id));
    const alreadyIn = wanted.filter((id) => inside.has(id));
    if (!added.length) return { added, alreadyIn };
    const last = await tx.collectionItem.aggregate({ where: { collectionId: current.id }, _max: { position: true } });
    const start = (last._max.position ?? -1) + 1;
    await tx.collectionItem.createMany({
      data: added.map((storyId, i) => ({ collectionId: current.id, position: start + i, storyId })),
    });
    await tx.collection.update({ where: { id: current.id }, data: { updatedAt: now } });
    await recordCollectionChange(tx, {
      actor,
      collectionId: current.id,
      change: "items",
      now,
      audit: { added: added.length },
    });
    return { added, alreadyIn };
  });
}

/** Parent → child collection ids, for the account's live collections. */
async function nestingEdges(db: Db, accountId: number): Promise<Map<number, number[]>> {
  const rows = await db.collectionItem.findMany({
    where: { childCollectionId: { not: null }, collection: { accountId, deletedAt: null } },
    select: { collectionId: true, childCollectionId: true },
  });
  const edges = new Map<number, number[]>();
  for (const row of rows) edges.set(row.collectionId, [...(edges.get(row.collectionId) ?? []), row.childCollectionId!]);
  return edges;
}

/**
 * Soft-delete a collection: it stops being served, its slug is freed, and it is taken out of the
 * collections that contained it (each of those changes too, and says so). A section's own
 * collection goes with its section only (409 here).
 */
export async function deleteCollection(
  db: Db,
  args: { actor: Actor; id: number; now: Date },
): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked first: of two deletes the second waits, then finds it gone (404).
    await lockRows(tx, "collections", { accountId: actor.accountId, ids: [args.id], mode: "update" });
    const current = await getOwnedCollection(tx, actor, args.id);
    if (current.sectionOf) {
      throw new AppError(
        "CONFLICT",
        `This is the collection of the section "${current.sectionOf.name}": it is removed with the section.`,
      );
    }
    await softDeleteCollection(tx, { actor, id: current.id, slug: current.slug, now });
    return { deleted: true as const };
  });
}

/** Also used when a section goes (taxonomy.ts). */
export async function softDeleteCollection(
  tx: Db,
  args: { actor: Actor; id: number; slug: string; now: Date },
): Promise<void> {
  const { actor, now } = args;
  // Only a live collection is deleted (a concurrent delete that got there first leaves nothing to do).
  const deleted = await tx.collection.updateMany({
    where: { id: args.id, accountId: actor.accountId, deletedAt: null },
    data: { deletedAt: now, slug: deletedSlug(args.slug, args.id) },
  });
  if (deleted.count === 0) throw new AppError("NOT_FOUND", "Collection not found.");
  const parents = await tx.collectionItem.findMany({
    where: { childCollectionId: args.id, collection: { deletedAt: null } },
    select: { collectionId: true },
  });
  await tx.collectionItem.deleteMany({ where: { childCollectionId: args.id } });
  // The event names the slug it was served under.
  await recordCollectionChange(tx, {
    actor,
    collectionId: args.id,
    change: "delete",
    now,
    slug: args.slug,
    audit: { slug: args.slug },
  });
  for (const parentId of new Set(parents.map((p) => p.collectionId))) {
    await tx.collection.update({ where: { id: parentId }, data: { updatedAt: now } });
    await emitCollectionUpdate(tx, { actor, collectionId: parentId, change: "items", now });
  }
}
