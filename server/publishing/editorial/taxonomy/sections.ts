/**
 * Sections: a tree of what stories are filed under, each with its automated section collection
 * (rules {"section-ids":[id]}, slug "section-<slug>"). Deleting is soft, refused (409) while
 * stories are filed under the section or it has live subsections (./changes.ts).
 */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma, Section } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { emitCollectionUpdate } from "../collections/events";
import { softDeleteCollection } from "../collections/write";
import {
  ZCreateSectionInput,
  ZUpdateSectionInput,
  type TCreateSectionInput,
  type TUpdateSectionInput,
} from "../organise.schema";
import {
  assertSlugChangeFree,
  assertSlugFree,
  defined,
  deletedSlug,
  getOwnedOrThrow,
  lockNesting,
  lockRows,
  notFound,
  slugFromName,
  type OwnedRows,
} from "../shared";
import { recordQuietTaxonomyChange, recordTaxonomyChange } from "./changes";

type SectionNode = {
  id: number;
  name: string;
  displayName: string;
  slug: string;
  parentId: number | null;
  /** 0 for top-level sections. */
  depth: number;
  collection: { id: number; slug: string } | null;
  storyCount: number;
};

/**
 * Sections in tree order (each parent followed by its subsections, siblings by position then
 * name) with their depth. A section whose parent is missing is shown at the top level.
 */
export function sectionTree<T extends { id: number; parentId: number | null; name: string; position: number }>(
  rows: readonly T[],
): (T & { depth: number })[] {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, T[]>();
  for (const row of rows) {
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  for (const list of children.values())
    list.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name) || a.id - b.id);
  const out: (T & { depth: number })[] = [];
  const visited = new Set<number>();
  const walk = (parent: number | null, depth: number) => {
    for (const row of children.get(parent) ?? []) {
      if (visited.has(row.id)) continue;
      visited.add(row.id);
      out.push({ ...row, depth });
      walk(row.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** True when making `parentId` the parent of `sectionId` would put the section under itself. */
export function wouldCreateSectionCycle(
  sectionId: number,
  parentId: number | null,
  parentOf: ReadonlyMap<number, number | null>,
): boolean {
  const seen = new Set<number>();
  for (let current = parentId; current !== null && current !== undefined; current = parentOf.get(current) ?? null) {
    if (current === sectionId) return true;
    if (seen.has(current)) return false;
    seen.add(current);
  }
  return false;
}

/** The columns the dashboard's tree and the webhook event both show. */
const SECTION_COLUMNS = { id: true, name: true, displayName: true, slug: true, parentId: true } as const;

export async function listSections(db: Db, { actor }: { actor: Actor }): Promise<SectionNode[]> {
  const rows = await db.section.findMany({
    where: { accountId: actor.accountId, deletedAt: null },
    select: {
      ...SECTION_COLUMNS,
      position: true,
      collection: { select: { id: true, slug: true } },
      _count: { select: { stories: true } },
    },
  });
  return sectionTree(rows).map((row) => ({
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    slug: row.slug,
    parentId: row.parentId,
    depth: row.depth,
    collection: row.collection,
    storyCount: row._count.stories,
  }));
}

const SECTIONS = {
  what: "Section",
  table: "sections",
  soft: true,
  findFirst: (db, where) => db.section.findFirst({ where }),
} satisfies OwnedRows<Section>;

/** The parent exists, and stays until the transaction ends (a delete of it waits, then sees the subsection). */
async function assertParent(db: Db, actor: Actor, parentId: number) {
  const found = await lockRows(db, "sections", { accountId: actor.accountId, ids: [parentId], mode: "share" });
  if (!found.has(parentId)) throw notFound("Parent section", "parentId");
}

const sectionCollectionSlug = (slug: string) => `section-${slug}`;

/** 409 when another collection of the account (not `exceptId`) has the slug the section's collection needs. */
async function assertCollectionSlugFree(db: Db, actor: Actor, collectionSlug: string, exceptId?: number) {
  const clash = await db.collection.findFirst({
    where: { accountId: actor.accountId, slug: collectionSlug, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) {
    throw new AppError(
      "CONFLICT",
      `A collection already uses the slug "${collectionSlug}", which this section's collection needs.`,
      { details: [{ field: "slug", issue: `collection "${collectionSlug}" exists` }] },
    );
  }
}

/** A section in its webhook event (../taxonomy-events.ts), read through the change's transaction. */
async function sectionEventItem(db: Db, id: number) {
  const row = await db.section.findUniqueOrThrow({
    where: { id },
    select: {
      ...SECTION_COLUMNS,
      collectionId: true,
      deletedAt: true,
      updatedAt: true,
    },
  });
  return {
    id: row.id,
    name: row.name,
    "display-name": row.displayName,
    slug: row.slug,
    "parent-id": row.parentId,
    "collection-id": row.collectionId,
    "updated-at": row.updatedAt.getTime(),
    "deleted-at": row.deletedAt ? row.deletedAt.getTime() : null,
  };
}

async function getSectionNode(db: Db, { actor, id }: { actor: Actor; id: number }): Promise<SectionNode> {
  const node = (await listSections(db, { actor })).find((s) => s.id === id);
  if (!node) throw notFound("Section");
  return node;
}

/** A section and its automated section collection (rules {"section-ids":[id]}, slug "section-<slug>"). */
export async function createSection(
  db: Db,
  args: { actor: Actor; input: TCreateSectionInput; now: Date },
): Promise<{ section: SectionNode }> {
  const { actor, now } = args;
  const input = parseInput(ZCreateSectionInput, args.input);
  const slug = input.slug ?? slugFromName(input.name);
  return withTransaction(db, async (tx) => {
    await assertSlugFree(tx, "section", { actor, slug });
    if (input.parentId !== null) await assertParent(tx, actor, input.parentId);
    const collectionSlug = sectionCollectionSlug(slug);
    await assertCollectionSlugFree(tx, actor, collectionSlug);
    const last = await tx.section.aggregate({
      where: { accountId: actor.accountId, parentId: input.parentId },
      _max: { position: true },
    });
    const section = await tx.section.create({
      data: {
        accountId: actor.accountId,
        name: input.name,
        displayName: input.displayName ?? input.name,
        slug,
        parentId: input.parentId,
        position: (last._max.position ?? -1) + 1,
      },
    });
    const collection = await tx.collection.create({
      data: {
        accountId: actor.accountId,
        slug: collectionSlug,
        name: section.displayName,
        automated: true,
        rules: { "section-ids": [section.id] },
      },
    });
    await tx.section.update({ where: { id: section.id }, data: { collectionId: collection.id } });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "section",
      change: "create",
      targetId: section.id,
      metadata: { slug, collectionId: collection.id },
      now,
    });
    await emitCollectionUpdate(tx, { actor, collectionId: collection.id, change: "create", now });
    return { section: await getSectionNode(tx, { actor, id: section.id }) };
  });
}

/**
 * Rename, re-slug or move a section. Its collection follows: slug "section-<slug>" and name,
 * when they still are the ones the section gave it.
 */
export async function updateSection(
  db: Db,
  args: { actor: Actor; input: TUpdateSectionInput; now: Date },
): Promise<{ section: SectionNode }> {
  const { actor, now } = args;
  const input = parseInput(ZUpdateSectionInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await getOwnedOrThrow(tx, SECTIONS, { actor, id: input.id });
    await assertSlugChangeFree(tx, "section", { actor, slug: input.slug, current });
    if (input.parentId !== undefined && input.parentId !== null && input.parentId !== current.parentId) {
      // The nesting lock before the parent's row: two moves (A under B, B under A) would otherwise
      // each hold one row and wait for the other (a deadlock).
      await lockNesting(tx, actor.accountId, "sections");
      await assertParent(tx, actor, input.parentId);
      const all = await tx.section.findMany({
        where: { accountId: actor.accountId, deletedAt: null },
        select: { id: true, parentId: true },
      });
      if (wouldCreateSectionCycle(current.id, input.parentId, new Map(all.map((s) => [s.id, s.parentId])))) {
        throw new AppError("UNPROCESSABLE", "A section cannot be placed under itself or one of its subsections.", {
          details: [{ field: "parentId", issue: "would make the section its own ancestor" }],
        });
      }
    }
    await tx.section.update({
      where: { id: current.id },
      data: {
        ...defined({ name: input.name, displayName: input.displayName, slug: input.slug, parentId: input.parentId }),
        updatedAt: now,
      },
    });

    const collection = current.collectionId
      ? await tx.collection.findFirst({ where: { id: current.collectionId, deletedAt: null } })
      : null;
    if (collection) {
      const data: Prisma.CollectionUpdateInput = {};
      if (
        input.slug !== undefined &&
        input.slug !== current.slug &&
        collection.slug === sectionCollectionSlug(current.slug)
      ) {
        const next = sectionCollectionSlug(input.slug);
        await assertCollectionSlugFree(tx, actor, next, collection.id);
        data.slug = next;
      }
      if (
        input.displayName !== undefined &&
        input.displayName !== current.displayName &&
        collection.name === current.displayName
      )
        data.name = input.displayName;
      if (Object.keys(data).length) {
        await tx.collection.update({ where: { id: collection.id }, data: { ...data, updatedAt: now } });
        await emitCollectionUpdate(tx, { actor, collectionId: collection.id, change: "update", now });
      }
    }
    const fields = Object.keys(input).filter((key) => key !== "id");
    await recordTaxonomyChange(tx, {
      actor,
      kind: "section",
      change: "update",
      item: await sectionEventItem(tx, current.id),
      previous: { name: current.name, slug: current.slug },
      collectionId: current.collectionId,
      now,
      audit: { targetId: current.id, metadata: { fields } },
    });
    return { section: await getSectionNode(tx, { actor, id: current.id }) };
  });
}

/** Soft delete; refused while stories are filed under the section or it has subsections (409). */
export async function deleteSection(db: Db, args: { actor: Actor; id: number; now: Date }): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked before counting what uses it (../shared.ts lockRows): a story being filed under it
    // meanwhile is counted (409) or finds it gone; a second delete finds it gone (404).
    const current = await getOwnedOrThrow(tx, SECTIONS, { actor, id: args.id, lock: true });
    const stories = await tx.storySection.count({ where: { sectionId: current.id } });
    if (stories > 0) {
      throw new AppError(
        "CONFLICT",
        `${stories} ${stories === 1 ? "story is" : "stories are"} filed under this section: move ${stories === 1 ? "it" : "them"} first.`,
      );
    }
    const children = await tx.section.count({ where: { parentId: current.id, deletedAt: null } });
    if (children > 0) throw new AppError("CONFLICT", "This section has subsections: move or delete them first.");
    await tx.section.update({
      where: { id: current.id },
      data: { deletedAt: now, slug: deletedSlug(current.slug, current.id) },
    });
    if (current.collectionId) {
      const collection = await tx.collection.findFirst({
        where: { id: current.collectionId, deletedAt: null },
        select: { id: true, slug: true },
      });
      if (collection) await softDeleteCollection(tx, { actor, id: collection.id, slug: collection.slug, now });
    }
    // No story is filed under it (refused above): its own keys, config and its collection.
    await recordTaxonomyChange(tx, {
      actor,
      kind: "section",
      change: "delete",
      item: { ...(await sectionEventItem(tx, current.id)), slug: current.slug },
      storyIds: [],
      collectionId: current.collectionId,
      now,
      audit: { targetId: current.id, metadata: { slug: current.slug } },
    });
    return { deleted: true as const };
  });
}
