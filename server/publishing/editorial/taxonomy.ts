/**
 * What stories are filed under, in the dashboard: sections (a tree), authors, tags, and
 * entities with their named, ranked relationships. Every function is scoped to the actor's
 * account (another account's id is NOT_FOUND) and writes the audit log.
 *
 * Deleting, decided per kind (docs/publishing.md):
 * - section: soft (deletedAt), refused (409) while stories are filed under it or it has live
 *   subsections; its slug is freed and its section collection goes with it;
 * - author: refused (409) while stories carry the byline, otherwise removed;
 * - tag: removed, and taken off the stories that had it (a tag carries nothing else);
 * - entity: soft (deletedAt); its relationships stay, so restoring it loses nothing.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import { purgeResponses } from "../../cache/response-cache";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { authorToWire, tagToWire } from "../story-view";
import { emitCollectionUpdate, softDeleteCollection } from "./collections";
import { assertImageRefsAllowed, collectImageRefs } from "./image-refs";
import {
  slugify,
  ZAddRelationshipInput,
  ZCreateAuthorInput,
  ZCreateEntityInput,
  ZCreateSectionInput,
  ZCreateTagInput,
  ZListEntitiesInput,
  ZListInput,
  ZUpdateAuthorInput,
  ZUpdateEntityInput,
  ZUpdateSectionInput,
  ZUpdateTagInput,
  type TAddRelationshipInput,
  type TCreateAuthorInput,
  type TCreateEntityInput,
  type TCreateSectionInput,
  type TCreateTagInput,
  type TListEntitiesInput,
  type TListInput,
  type TUpdateAuthorInput,
  type TUpdateEntityInput,
  type TUpdateSectionInput,
  type TUpdateTagInput,
} from "./organise.schema";
import { cleanMetadataOrThrow, cleanOptionalHtml } from "./sanitize";
import {
  assertSlugChangeFree,
  assertSlugFree,
  defined,
  deletedSlug,
  lockNesting,
  lockRows,
  searchWhere,
  slugFromName,
} from "./shared";
import { emitTaxonomyEvent, publishedStoryIdsOf, taxonomyPurgeKeys } from "./taxonomy-events";

const notFound = (what: string, field?: string) =>
  new AppError("NOT_FOUND", `${what} not found.`, field ? { details: [{ field, issue: "does not exist" }] } : {});

/**
 * A section, author, tag or entity changed: its webhook event (./taxonomy-events.ts), then its
 * audit entry ("<kind>.<change>"), both through the change's transaction.
 */
async function recordTaxonomyChange(
  tx: Db,
  args: Omit<Parameters<typeof emitTaxonomyEvent>[1], "storyIds"> & {
    /** By default the published stories that carry the item now; given when the change takes it off them. */
    storyIds?: readonly string[];
    audit: { targetId: number; metadata: Prisma.InputJsonObject };
  },
): Promise<void> {
  const { audit, ...event } = args;
  const storyIds = event.storyIds ?? (await publishedStoryIdsOf(tx, event.kind, event.item.id));
  await emitTaxonomyEvent(tx, { ...event, storyIds });
  await auditTaxonomy(tx, { actor: event.actor, kind: event.kind, change: event.change, ...audit, now: event.now });
}

/** The audit entry of a change to a section, author, tag or entity: "<kind>.<change>" on that kind. */
type TaxonomyAudit = {
  actor: Actor;
  kind: Parameters<typeof emitTaxonomyEvent>[1]["kind"];
  change: string;
  targetId: number;
  metadata: Prisma.InputJsonObject;
  now: Date;
};

async function auditTaxonomy(tx: Db, args: TaxonomyAudit): Promise<void> {
  const { kind, change, ...entry } = args;
  await recordAudit(tx, { ...entry, action: `${kind}.${change}`, targetType: kind });
}

/**
 * A change that announces no event (a creation, an entity relation): its audit entry, and the
 * purge of the responses that list or show the item (an event purges what it announces itself).
 */
async function recordQuietTaxonomyChange(tx: Db, args: TaxonomyAudit): Promise<void> {
  await auditTaxonomy(tx, args);
  const related = typeof args.metadata.to === "number" ? [`e/${args.metadata.to}`] : [];
  await purgeResponses(tx, args.actor.accountId, [
    ...taxonomyPurgeKeys(args.kind, { id: args.targetId, storyIds: [] }),
    ...related,
  ]);
}

// ─── Sections ────────────────────────────────────────────────────────────────────────────────

export type SectionNode = {
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

export async function listSections(db: Db, { actor }: { actor: Actor }): Promise<SectionNode[]> {
  const rows = await db.section.findMany({
    where: { accountId: actor.accountId, deletedAt: null },
    select: {
      id: true,
      name: true,
      displayName: true,
      slug: true,
      parentId: true,
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

async function getOwnedSection(db: Db, actor: Actor, id: number) {
  const section = await db.section.findFirst({ where: { id, accountId: actor.accountId, deletedAt: null } });
  if (!section) throw notFound("Section");
  return section;
}

/** The parent exists, and stays until the transaction ends (a delete of it waits, then sees the subsection). */
async function assertParent(db: Db, actor: Actor, parentId: number) {
  const found = await lockRows(db, "sections", { accountId: actor.accountId, ids: [parentId], mode: "share" });
  if (!found.has(parentId)) throw notFound("Parent section", "parentId");
}

const sectionCollectionSlug = (slug: string) => `section-${slug}`;

/** A section in its webhook event (./taxonomy-events.ts), read through the change's transaction. */
async function sectionEventItem(db: Db, id: number) {
  const row = await db.section.findUniqueOrThrow({
    where: { id },
    select: {
      id: true,
      name: true,
      displayName: true,
      slug: true,
      parentId: true,
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
    const clash = await tx.collection.findFirst({
      where: { accountId: actor.accountId, slug: collectionSlug },
      select: { id: true },
    });
    if (clash) {
      throw new AppError(
        "CONFLICT",
        `A collection already uses the slug "${collectionSlug}", which this section's collection needs.`,
        {
          details: [{ field: "slug", issue: `collection "${collectionSlug}" exists` }],
        },
      );
    }
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
    const current = await getOwnedSection(tx, actor, input.id);
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
        const clash = await tx.collection.findFirst({
          where: { accountId: actor.accountId, slug: next, NOT: { id: collection.id } },
          select: { id: true },
        });
        if (clash) {
          throw new AppError(
            "CONFLICT",
            `A collection already uses the slug "${next}", which this section's collection needs.`,
            {
              details: [{ field: "slug", issue: `collection "${next}" exists` }],
            },
          );
        }
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
    // Locked before counting what uses it (./shared.ts lockRows): a story being filed under it
    // meanwhile is counted (409) or finds it gone; a second delete finds it gone (404).
    await lockRows(tx, "sections", { accountId: actor.accountId, ids: [args.id], mode: "update" });
    const current = await getOwnedSection(tx, actor, args.id);
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

// ─── Authors ─────────────────────────────────────────────────────────────────────────────────

const AUTHOR_SELECT = {
  id: true,
  name: true,
  slug: true,
  email: true,
  bio: true,
  avatarUrl: true,
  avatarS3Key: true,
  twitterHandle: true,
  updatedAt: true,
  _count: { select: { stories: true } },
} satisfies Prisma.AuthorSelect;

type AuthorRow = Prisma.AuthorGetPayload<{ select: typeof AUTHOR_SELECT }>;
/**
 * An author in its webhook event (./taxonomy-events.ts): the content API's fields (../story-view.ts),
 * without its metadata, which the editor's row does not load.
 */
const authorEventItem = (author: AuthorRow) => {
  const { metadata: _metadata, ...item } = authorToWire({ ...author, metadata: null });
  return item;
};
const authorView = ({ _count, ...author }: AuthorRow) => ({ ...author, storyCount: _count.stories });
export type AuthorView = ReturnType<typeof authorView>;

export async function listAuthors(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListInput,
): Promise<{ authors: AuthorView[]; total: number }> {
  const { q, limit, offset } = parseInput(ZListInput, input);
  const where: Prisma.AuthorWhereInput = {
    accountId: actor.accountId,
    ...searchWhere(q, ["name", "slug", "email"]),
  };
  const [rows, total] = await Promise.all([
    db.author.findMany({
      where,
      select: AUTHOR_SELECT,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: limit,
      skip: offset,
    }),
    db.author.count({ where }),
  ]);
  return { authors: rows.map(authorView), total };
}

async function getOwnedAuthor(db: Db, actor: Actor, id: number) {
  const author = await db.author.findFirst({ where: { id, accountId: actor.accountId }, select: AUTHOR_SELECT });
  if (!author) throw notFound("Author");
  return author;
}

export async function createAuthor(
  db: Db,
  args: { actor: Actor; input: TCreateAuthorInput; now: Date },
): Promise<AuthorView> {
  const { actor, now } = args;
  const input = parseInput(ZCreateAuthorInput, args.input);
  input.bio = cleanOptionalHtml(input.bio);
  const slug = input.slug ?? slugFromName(input.name);
  return withTransaction(db, async (tx) => {
    await assertSlugFree(tx, "author", { actor, slug });
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: input.avatarS3Key ? [{ field: "avatarS3Key", key: input.avatarS3Key }] : [],
    });
    const author = await tx.author.create({
      data: {
        accountId: actor.accountId,
        name: input.name,
        slug,
        email: input.email ?? null,
        bio: input.bio ?? null,
        avatarUrl: input.avatarUrl ?? null,
        avatarS3Key: input.avatarS3Key ?? null,
        twitterHandle: input.twitterHandle ?? null,
      },
      select: AUTHOR_SELECT,
    });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "author",
      change: "create",
      targetId: author.id,
      metadata: { slug },
      now,
    });
    return authorView(author);
  });
}

export async function updateAuthor(
  db: Db,
  args: { actor: Actor; input: TUpdateAuthorInput; now: Date },
): Promise<AuthorView> {
  const { actor, now } = args;
  const { id, ...input } = parseInput(ZUpdateAuthorInput, args.input);
  input.bio = cleanOptionalHtml(input.bio);
  return withTransaction(db, async (tx) => {
    const current = await getOwnedAuthor(tx, actor, id);
    await assertSlugChangeFree(tx, "author", { actor, slug: input.slug, current });
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: input.avatarS3Key ? [{ field: "avatarS3Key", key: input.avatarS3Key }] : [],
      keep: current.avatarS3Key ? [current.avatarS3Key] : [],
    });
    const author = await tx.author.update({
      where: { id: current.id },
      data: { ...defined(input), updatedAt: now },
      select: AUTHOR_SELECT,
    });
    await recordTaxonomyChange(tx, {
      actor,
      kind: "author",
      change: "update",
      item: authorEventItem(author),
      previous: { name: current.name, slug: current.slug },
      now,
      audit: { targetId: id, metadata: { fields: Object.keys(defined(input)) } },
    });
    return authorView(author);
  });
}

/** Refused (409) while any story carries the byline. */
export async function deleteAuthor(db: Db, args: { actor: Actor; id: number; now: Date }): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked before counting bylines, like sections (./shared.ts lockRows).
    await lockRows(tx, "authors", { accountId: actor.accountId, ids: [args.id], mode: "update" });
    const current = await getOwnedAuthor(tx, actor, args.id);
    const stories = await tx.storyAuthor.count({ where: { authorId: current.id } });
    if (stories > 0) {
      throw new AppError(
        "CONFLICT",
        `${stories} ${stories === 1 ? "story carries" : "stories carry"} this byline: change ${stories === 1 ? "its" : "their"} authors first.`,
      );
    }
    await tx.author.delete({ where: { id: current.id } });
    // No story carries the byline (refused above): the author's own responses and lists.
    await recordTaxonomyChange(tx, {
      actor,
      kind: "author",
      change: "delete",
      item: { ...authorEventItem(current), "deleted-at": now.getTime() },
      storyIds: [],
      now,
      audit: { targetId: current.id, metadata: { slug: current.slug } },
    });
    return { deleted: true as const };
  });
}

// ─── Tags ────────────────────────────────────────────────────────────────────────────────────

const TAG_SELECT = {
  id: true,
  name: true,
  slug: true,
  metaDescription: true,
  updatedAt: true,
  _count: { select: { stories: true } },
} satisfies Prisma.TagSelect;
type TagRow = Prisma.TagGetPayload<{ select: typeof TAG_SELECT }>;
const tagView = ({ _count, ...tag }: TagRow) => ({ ...tag, storyCount: _count.stories });
export type TagView = ReturnType<typeof tagView>;

export async function listTags(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListInput,
): Promise<{ tags: TagView[]; total: number }> {
  const { q, limit, offset } = parseInput(ZListInput, input);
  const where: Prisma.TagWhereInput = {
    accountId: actor.accountId,
    ...searchWhere(q, ["name", "slug"]),
  };
  const [rows, total] = await Promise.all([
    db.tag.findMany({
      where,
      select: TAG_SELECT,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: limit,
      skip: offset,
    }),
    db.tag.count({ where }),
  ]);
  return { tags: rows.map(tagView), total };
}

async function getOwnedTag(db: Db, actor: Actor, id: number) {
  const tag = await db.tag.findFirst({ where: { id, accountId: actor.accountId }, select: TAG_SELECT });
  if (!tag) throw notFound("Tag");
  return tag;
}

export async function createTag(db: Db, args: { actor: Actor; input: TCreateTagInput; now: Date }): Promise<TagView> {
  const { actor, now } = args;
  const input = parseInput(ZCreateTagInput, args.input);
  const slug = input.slug ?? slugFromName(input.name);
  return withTransaction(db, async (tx) => {
    await assertSlugFree(tx, "tag", { actor, slug });
    const tag = await tx.tag.create({
      data: { accountId: actor.accountId, name: input.name, slug, metaDescription: input.metaDescription ?? null },
      select: TAG_SELECT,
    });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "tag",
      change: "create",
      targetId: tag.id,
      metadata: { slug },
      now,
    });
    return tagView(tag);
  });
}

/** Rename a tag (and change its slug or description). */
export async function updateTag(db: Db, args: { actor: Actor; input: TUpdateTagInput; now: Date }): Promise<TagView> {
  const { actor, now } = args;
  const { id, ...input } = parseInput(ZUpdateTagInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await getOwnedTag(tx, actor, id);
    await assertSlugChangeFree(tx, "tag", { actor, slug: input.slug, current });
    const tag = await tx.tag.update({
      where: { id: current.id },
      data: { ...defined(input), updatedAt: now },
      select: TAG_SELECT,
    });
    await recordTaxonomyChange(tx, {
      actor,
      kind: "tag",
      change: "update",
      item: tagToWire(tag), // the content API's fields (../story-view.ts)
      previous: { name: current.name, slug: current.slug },
      now,
      audit: { targetId: id, metadata: { fields: Object.keys(defined(input)), from: current.name } },
    });
    return tagView(tag);
  });
}

/** Removes the tag and takes it off every story that had it. */
export async function deleteTag(
  db: Db,
  args: { actor: Actor; id: number; now: Date },
): Promise<{ deleted: true; untaggedStories: number }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked first: of two deletes the second waits, then finds it gone (404) (./shared.ts lockRows).
    await lockRows(tx, "tags", { accountId: actor.accountId, ids: [args.id], mode: "update" });
    const current = await getOwnedTag(tx, actor, args.id);
    // The stories it is taken off, read before the delete does that.
    const storyIds = await publishedStoryIdsOf(tx, "tag", current.id);
    await tx.tag.delete({ where: { id: current.id } });
    await recordTaxonomyChange(tx, {
      actor,
      kind: "tag",
      change: "delete",
      item: { ...tagToWire(current), "deleted-at": now.getTime() },
      storyIds,
      now,
      audit: { targetId: current.id, metadata: { slug: current.slug, stories: current._count.stories } },
    });
    return { deleted: true as const, untaggedStories: current._count.stories };
  });
}

// ─── Entities ────────────────────────────────────────────────────────────────────────────────

const ENTITY_SELECT = {
  id: true,
  name: true,
  type: true,
  slug: true,
  metadata: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
  _count: { select: { stories: true, relations: true } },
} satisfies Prisma.EntitySelect;
type EntityRow = Prisma.EntityGetPayload<{ select: typeof ENTITY_SELECT }>;
/** An entity in its webhook event (./taxonomy-events.ts). */
const entityEventItem = (entity: EntityRow, deletedAt: Date | null) => ({
  id: entity.id,
  name: entity.name,
  type: entity.type,
  slug: entity.slug,
  metadata: entity.metadata ?? {},
  "updated-at": entity.updatedAt.getTime(),
  "deleted-at": deletedAt ? deletedAt.getTime() : null,
});
const entityView = ({ _count, metadata, ...entity }: EntityRow) => ({
  ...entity,
  metadata: (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) ? metadata : {}) as Record<
    string,
    unknown
  >,
  storyCount: _count.stories,
  relationshipCount: _count.relations,
});
export type EntityView = ReturnType<typeof entityView>;

export async function listEntities(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListEntitiesInput,
): Promise<{ entities: EntityView[]; total: number; types: string[] }> {
  const { q, type, limit, offset } = parseInput(ZListEntitiesInput, input);
  const where: Prisma.EntityWhereInput = {
    accountId: actor.accountId,
    deletedAt: null,
    ...(type ? { type } : {}),
    ...searchWhere(q, ["name", "slug"]),
  };
  const [rows, total, types] = await Promise.all([
    db.entity.findMany({
      where,
      select: ENTITY_SELECT,
      orderBy: [{ type: "asc" }, { name: "asc" }, { id: "asc" }],
      take: limit,
      skip: offset,
    }),
    db.entity.count({ where }),
    db.entity.findMany({
      where: { accountId: actor.accountId, deletedAt: null },
      distinct: ["type"],
      select: { type: true },
      orderBy: { type: "asc" },
    }),
  ]);
  return { entities: rows.map(entityView), total, types: types.map((t) => t.type) };
}

async function getOwnedEntity(db: Db, actor: Actor, id: number, field?: string) {
  const entity = await db.entity.findFirst({
    where: { id, accountId: actor.accountId, deletedAt: null },
    select: ENTITY_SELECT,
  });
  if (!entity) throw notFound("Entity", field);
  return entity;
}

/**
 * Relationships as an entity sees them, each with the entity at its other end (`end`); those whose
 * other end is deleted are left out.
 */
function linksTo<R extends { id: number; relation: string; rank: number }>(
  rows: readonly R[],
  end: (row: R) => { id: number; name: string; type: string; deletedAt: Date | null },
) {
  return rows.flatMap((row) => {
    const { id, name, type, deletedAt } = end(row);
    return deletedAt ? [] : [{ id: row.id, relation: row.relation, rank: row.rank, entity: { id, name, type } }];
  });
}

/** One entity with its relationships both ways (the ones it names, and the ones naming it). */
export async function getEntity(db: Db, { actor, id }: { actor: Actor; id: number }) {
  const entity = await getOwnedEntity(db, actor, id);
  const linked = { select: { id: true, name: true, type: true, deletedAt: true } } as const;
  const orderBy = [{ relation: "asc" as const }, { rank: "asc" as const }, { id: "asc" as const }];
  const [relations, relatedBy] = await Promise.all([
    db.entityRelationship.findMany({
      where: { fromEntityId: id },
      orderBy,
      select: { id: true, relation: true, rank: true, to: linked },
    }),
    db.entityRelationship.findMany({
      where: { toEntityId: id },
      orderBy,
      select: { id: true, relation: true, rank: true, from: linked },
    }),
  ]);
  return {
    ...entityView(entity),
    relations: linksTo(relations, (r) => r.to),
    relatedBy: linksTo(relatedBy, (r) => r.from),
  };
}

export async function createEntity(
  db: Db,
  args: { actor: Actor; input: TCreateEntityInput; now: Date },
): Promise<EntityView> {
  const { actor, now } = args;
  const input = parseInput(ZCreateEntityInput, args.input);
  input.metadata = cleanMetadataOrThrow(input.metadata, "metadata");
  return withTransaction(db, async (tx) => {
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: collectImageRefs(input.metadata, "metadata"),
    });
    const entity = await tx.entity.create({
      data: {
        accountId: actor.accountId,
        name: input.name,
        type: input.type,
        slug: input.slug ?? (slugify(input.name) || null),
        metadata: input.metadata as Prisma.InputJsonObject,
        createdBy: actorUserId(actor),
        lastUpdatedBy: actorUserId(actor),
      },
      select: ENTITY_SELECT,
    });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "entity",
      change: "create",
      targetId: entity.id,
      metadata: { type: input.type, name: input.name },
      now,
    });
    return entityView(entity);
  });
}

export async function updateEntity(
  db: Db,
  args: { actor: Actor; input: TUpdateEntityInput; now: Date },
): Promise<EntityView> {
  const { actor, now } = args;
  const { id, metadata: rawMetadata, ...input } = parseInput(ZUpdateEntityInput, args.input);
  const metadata = cleanMetadataOrThrow(rawMetadata, "metadata");
  return withTransaction(db, async (tx) => {
    const current = await getOwnedEntity(tx, actor, id);
    await assertImageRefsAllowed(tx, {
      accountId: actor.accountId,
      refs: collectImageRefs(metadata, "metadata"),
      keep: collectImageRefs(current.metadata, "metadata").map((ref) => ref.key),
    });
    const entity = await tx.entity.update({
      where: { id },
      data: {
        ...defined(input),
        ...(metadata !== undefined ? { metadata: metadata as Prisma.InputJsonObject } : {}),
        lastUpdatedBy: actorUserId(actor),
        updatedAt: now,
      },
      select: ENTITY_SELECT,
    });
    const fields = [...Object.keys(defined(input)), ...(metadata !== undefined ? ["metadata"] : [])];
    await recordTaxonomyChange(tx, {
      actor,
      kind: "entity",
      change: "update",
      item: entityEventItem(entity, null),
      previous: { name: current.name, slug: current.slug },
      now,
      audit: { targetId: id, metadata: { fields } },
    });
    return entityView(entity);
  });
}

/** Soft delete: the entity disappears from listings and the API; its rows stay. */
export async function deleteEntity(db: Db, args: { actor: Actor; id: number; now: Date }): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked first: of two deletes the second waits, then finds it gone (404) (./shared.ts lockRows).
    await lockRows(tx, "entities", { accountId: actor.accountId, ids: [args.id], mode: "update" });
    const current = await getOwnedEntity(tx, actor, args.id);
    await tx.entity.update({ where: { id: current.id }, data: { deletedAt: now, lastUpdatedBy: actorUserId(actor) } });
    await recordTaxonomyChange(tx, {
      actor,
      kind: "entity",
      change: "delete",
      item: entityEventItem(current, now),
      now,
      audit: { targetId: current.id, metadata: { type: current.type, name: current.name } },
    });
    return { deleted: true as const };
  });
}

/** from —relation→ to, at `rank` (lower first). No self-links (422); the same link twice is 409. */
export async function addEntityRelationship(db: Db, args: { actor: Actor; input: TAddRelationshipInput; now: Date }) {
  const { actor, now } = args;
  const input = parseInput(ZAddRelationshipInput, args.input);
  if (input.fromId === input.toId) {
    throw new AppError("UNPROCESSABLE", "An entity cannot be related to itself.", {
      details: [{ field: "toId", issue: "is the same entity" }],
    });
  }
  return withTransaction(db, async (tx) => {
    await getOwnedEntity(tx, actor, input.fromId, "fromId");
    await getOwnedEntity(tx, actor, input.toId, "toId");
    const existing = await tx.entityRelationship.findFirst({
      where: { fromEntityId: input.fromId, relation: input.relation, toEntityId: input.toId },
      select: { id: true },
    });
    if (existing) {
      throw new AppError("CONFLICT", `These entities are already related as "${input.relation}".`, {
        details: [{ field: "relation", issue: "already exists" }],
      });
    }
    const link = await tx.entityRelationship.create({
      data: { fromEntityId: input.fromId, relation: input.relation, toEntityId: input.toId, rank: input.rank },
      select: { id: true, fromEntityId: true, relation: true, toEntityId: true, rank: true },
    });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "entity",
      change: "relate",
      targetId: input.fromId,
      metadata: { relation: input.relation, to: input.toId, rank: input.rank },
      now,
    });
    return link;
  });
}

export async function removeEntityRelationship(
  db: Db,
  args: { actor: Actor; id: number; now: Date },
): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    const link = await tx.entityRelationship.findFirst({
      where: { id: args.id, from: { accountId: actor.accountId } },
      select: { id: true, fromEntityId: true, relation: true, toEntityId: true },
    });
    if (!link) throw notFound("Relationship");
    await tx.entityRelationship.delete({ where: { id: link.id } });
    await recordQuietTaxonomyChange(tx, {
      actor,
      kind: "entity",
      change: "unrelate",
      targetId: link.fromEntityId,
      metadata: { relation: link.relation, to: link.toEntityId },
      now,
    });
    return { deleted: true as const };
  });
}
