/**
 * Collections in the dashboard: lists of stories and collections that front ends lay out (home
 * page, section pages, widgets). Vocabulary:
 * - manual collection: editors choose the items and their order (CollectionItem rows, ./items.ts);
 * - automated collection: `rules` choose published stories (the read API evaluates them); its
 *   items, if it had any while manual, are kept but not served, so switching back restores them;
 * - section collection: the automated collection every section owns (rules {"section-ids":[id]},
 *   slug "section-<slug>"), created and removed with the section (../taxonomy/sections.ts).
 *
 * Every function is scoped to the actor's account (another account's id is NOT_FOUND). Every
 * change writes the audit log and records the CONTENT webhook event "collection-update" in the
 * same transaction (./events.ts; delivered once it commits). This file reads them.
 *
 * Invariant: a collection never contains itself, directly or through nested collections (422),
 * so readers that expand nested collections always terminate.
 */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { collectionHead } from "../../collections";
import {
  ZCollectionRules,
  ZListCollectionsInput,
  ZPickStoriesInput,
  type TCollectionRules,
  type TListCollectionsInput,
  type TPickStoriesInput,
} from "../organise.schema";
import { asObject, getOwnedOrThrow, listOwnedPage, searchWhere, type ListedRows, type OwnedRows } from "../shared";

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

type CollectionSummary = {
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

type CollectionItemView =
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

/** Stored rules as the schema reads them; rules stored by older code that no longer parse read as none. */
export function readRules(value: unknown): TCollectionRules {
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

/** The account's live collections, read a row or a page at a time (../shared.ts). */
export const COLLECTIONS = {
  what: "Collection",
  table: "collections",
  soft: true,
  findFirst: (db, where) => db.collection.findFirst({ where, select: COLLECTION_SELECT }),
  findMany: (db, args) => db.collection.findMany({ ...args, select: COLLECTION_SELECT }),
  count: (db, where) => db.collection.count({ where }),
} satisfies OwnedRows<CollectionRow> &
  ListedRows<CollectionRow, Prisma.CollectionWhereInput, Prisma.CollectionOrderByWithRelationInput[]>;

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

export async function listCollections(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListCollectionsInput,
): Promise<{ collections: CollectionSummary[]; total: number }> {
  const { q, automated, limit, offset } = parseInput(ZListCollectionsInput, input);
  const { rows, total } = await listOwnedPage(db, COLLECTIONS, {
    actor,
    where: { ...(automated !== undefined ? { automated } : {}), ...searchWhere(q, ["name", "slug"]) },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    limit,
    offset,
  });
  return { collections: rows.map(toSummary), total };
}

export async function getCollection(db: Db, { actor, id }: { actor: Actor; id: number }): Promise<CollectionDetail> {
  const row = await getOwnedOrThrow(db, COLLECTIONS, { actor, id });
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
