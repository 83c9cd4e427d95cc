/**
 * Entities (people, teams, places… that stories are linked to) as the content API reads them:
 * the list, one entity, the named relationships between entities, and the collections an
 * entity's stories appear in. Deleted entities (deleted-at set) are never shown: 404 by id, left
 * out of lists and relationship listings.
 *
 * Vocabulary: a relationship is a ranked, named link from one entity to another
 * (team → "players" → person); a relationship path walks them, e.g. /entities/3/players/7/clubs.
 */
import "server-only";

import { nullPrototypeRecord } from "@/server/own-keys";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { likeLiteral } from "./authors";
import { collectionHead } from "./collections";
import { ZStoredCollectionRules, type TStoredCollectionRules } from "./content.schema";
import type { TEntityCollectionsQuery, TEntityListQuery } from "./reference.schema";
import { ms } from "./story-view";

type EntityRow = Prisma.EntityGetPayload<object>;

const CORE_KEYS = [
  "id",
  "name",
  "type",
  "slug",
  "entity-type-id",
  "publisher-id",
  "created-by",
  "last-updated-by",
  "created-at",
  "updated-at",
  "deleted-at",
  "metadata",
];

/**
 * The wire entity (spec §2.3). The entity's own fields (metadata: photo, description…) are
 * also spread at the top level, where front ends built for the original API read them; the
 * core fields always win over a metadata key of the same name.
 */
function entityToWire(entity: EntityRow): Record<string, unknown> {
  const metadata =
    entity.metadata && typeof entity.metadata === "object" && !Array.isArray(entity.metadata)
      ? (entity.metadata as Record<string, unknown>)
      : {};
  const extra = Object.fromEntries(Object.entries(metadata).filter(([key]) => !CORE_KEYS.includes(key)));
  return {
    ...extra,
    id: entity.id,
    name: entity.name,
    type: entity.type,
    slug: entity.slug,
    "entity-type-id": entity.entityTypeId,
    "publisher-id": entity.accountId,
    "created-by": entity.createdBy,
    "last-updated-by": entity.lastUpdatedBy,
    "created-at": ms(entity.createdAt),
    "updated-at": ms(entity.updatedAt),
    "deleted-at": ms(entity.deletedAt),
    metadata,
  };
}

/** Entities matching every given filter, by name: {entities, total}. */
export async function listPublicEntities(db: Db, args: { accountId: number } & TEntityListQuery) {
  const and: Prisma.EntityWhereInput[] = [{ accountId: args.accountId, deletedAt: null }];
  if (args.id !== undefined) and.push({ id: args.id });
  if (args.ids) and.push({ id: { in: args.ids } });
  if (args.type) and.push({ type: args.type });
  if (args.q) and.push({ name: { contains: likeLiteral(args.q), mode: "insensitive" } });
  const where: Prisma.EntityWhereInput = { AND: and };
  const [total, rows] = await Promise.all([
    db.entity.count({ where }),
    db.entity.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: args.offset, take: args.limit }),
  ]);
  return { entities: rows.map(entityToWire), total };
}

async function findEntityRow(db: Db, accountId: number, id: number): Promise<EntityRow> {
  const entity = await db.entity.findFirst({ where: { id, accountId, deletedAt: null } });
  if (!entity) throw new AppError("NOT_FOUND", "No entity with this id.");
  return entity;
}

export async function getPublicEntity(db: Db, args: { accountId: number; id: number }) {
  return entityToWire(await findEntityRow(db, args.accountId, args.id));
}

export type RelationshipEntry = { id: number; name: string; "entity-type": string; rank: number; relationship: string };

/**
 * Walk a relationship path from an entity. Each relation name follows that relationship from
 * the current entity (or, after another relation name, from every entity the previous one led
 * to); an id after a relation name picks one of the entities it led to (404 otherwise) and the
 * walk goes on from it. The answer holds `self` (the last entity picked by id, the start one
 * if none) and, under its name, each relation followed since.
 */
export async function getEntityRelationships(db: Db, args: { accountId: number; id: number; path: readonly string[] }) {
  let self = await findEntityRow(db, args.accountId, args.id);
  let from = [self.id];
  let previous: RelationshipEntry[] = [];
  let listed = nullPrototypeRecord<RelationshipEntry[]>();
  for (const segment of args.path) {
    if (/^\d+$/.test(segment)) {
      const id = Number(segment);
      if (!previous.some((entry) => entry.id === id))
        throw new AppError("NOT_FOUND", `Entity ${id} is not reached by this relationship path.`);
      self = await findEntityRow(db, args.accountId, id);
      from = [self.id];
      listed = nullPrototypeRecord<RelationshipEntry[]>();
      continue;
    }
    const rows = await db.entityRelationship.findMany({
      where: { fromEntityId: { in: from }, relation: segment, to: { accountId: args.accountId, deletedAt: null } },
      include: { to: { select: { id: true, name: true, type: true } } },
      orderBy: [{ rank: "asc" }, { id: "asc" }],
      take: 1000,
    });
    const seen = new Set<number>();
    previous = [];
    for (const row of rows) {
      if (seen.has(row.to.id)) continue;
      seen.add(row.to.id);
      previous.push({
        id: row.to.id,
        name: row.to.name,
        "entity-type": row.to.type,
        rank: row.rank,
        relationship: row.relation,
      });
    }
    listed[segment] = previous;
    from = previous.map((entry) => entry.id);
  }
  return { relationships: { self: entityToWire(self), ...listed } };
}

/** How many of the entity's latest published stories are matched against automated collections. */
const STORIES_CHECKED = 2000;

type StoryFacts = { sectionIds: number[]; tagSlugs: string[]; authorIds: number[]; template: string | null };

/**
 * Does an automated collection select this story? The same reading of the rules as the
 * collection reader (collections.ts): each rule given must match (any listed value is enough; an
 * empty list matches nothing); `section-ids` (or, without it, the section the collection belongs
 * to) covers those sections and their direct sub-sections, `sectionFamily` resolves that; no rules
 * at all select every published story.
 */
export function rulesSelectStory(
  rules: TStoredCollectionRules,
  ownSectionId: number | null,
  story: StoryFacts,
  sectionFamily: (ids: readonly number[]) => Set<number>,
): boolean {
  const sectionIds = rules["section-ids"] ?? (ownSectionId !== null ? [ownSectionId] : undefined);
  if (sectionIds) {
    const family = sectionFamily(sectionIds);
    if (!story.sectionIds.some((id) => family.has(id))) return false;
  }
  const tags = rules["tag-slugs"];
  if (tags && !story.tagSlugs.some((slug) => tags.includes(slug))) return false;
  const authors = rules["author-ids"];
  if (authors && !story.authorIds.some((id) => authors.includes(id))) return false;
  const templates = rules["story-templates"];
  if (templates && (story.template === null || !templates.includes(story.template))) return false;
  return true;
}

/** Live sections among `ids`, plus live direct sub-sections of live ones (as sectionFamilyIds). */
export function sectionFamilyOf(
  sections: readonly { id: number; parentId: number | null }[],
): (ids: readonly number[]) => Set<number> {
  const live = new Set(sections.map((s) => s.id));
  return (ids) => {
    const wanted = new Set(ids.filter((id) => live.has(id)));
    return new Set(
      sections.filter((s) => wanted.has(s.id) || (s.parentId !== null && wanted.has(s.parentId))).map((s) => s.id),
    );
  };
}

/**
 * The collections the entity's published stories appear in: manual collections holding one of
 * them as an item, and automated collections whose rules select one of them (of its latest
 * STORIES_CHECKED), rules read exactly as GET /api/v1/collections/<slug> reads them. Deleted
 * collections are left out.
 */
export async function getEntityCollections(db: Db, args: { accountId: number; id: number } & TEntityCollectionsQuery) {
  const entity = await findEntityRow(db, args.accountId, args.id);
  const storyWhere: Prisma.StoryWhereInput = {
    accountId: args.accountId,
    status: "PUBLISHED",
    entities: { some: { entityId: entity.id } },
  };

  const [manual, stories, automated, sections] = await Promise.all([
    db.collectionItem.findMany({
      where: { story: storyWhere, collection: { accountId: args.accountId, deletedAt: null } },
      select: { collectionId: true },
      distinct: ["collectionId"],
    }),
    db.story.findMany({
      where: storyWhere,
      select: {
        storyTemplate: true,
        sections: { select: { sectionId: true } },
        tags: { select: { tag: { select: { slug: true } } } },
        authors: { select: { authorId: true } },
      },
      orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
      take: STORIES_CHECKED,
    }),
    db.collection.findMany({
      where: { accountId: args.accountId, deletedAt: null, automated: true },
      select: { id: true, rules: true, sectionOf: { select: { id: true } } },
    }),
    db.section.findMany({
      where: { accountId: args.accountId, deletedAt: null },
      select: { id: true, parentId: true },
    }),
  ]);

  const ids = new Set(manual.map((m) => m.collectionId));
  const facts: StoryFacts[] = stories.map((s) => ({
    sectionIds: s.sections.map((x) => x.sectionId),
    tagSlugs: s.tags.map((x) => x.tag.slug),
    authorIds: s.authors.map((x) => x.authorId),
    template: s.storyTemplate,
  }));
  const family = sectionFamilyOf(sections);
  for (const collection of automated) {
    const rules = ZStoredCollectionRules.parse(collection.rules);
    if (facts.some((story) => rulesSelectStory(rules, collection.sectionOf?.id ?? null, story, family)))
      ids.add(collection.id);
  }

  const where: Prisma.CollectionWhereInput = { id: { in: [...ids] }, accountId: args.accountId };
  const sortKey = args["sort-by"] === "name" ? "name" : args["sort-by"] === "created-at" ? "createdAt" : "updatedAt";
  const rows =
    ids.size === 0
      ? []
      : await db.collection.findMany({
          where,
          orderBy: [{ [sortKey]: args.order }, { id: "asc" }],
          skip: args.offset,
          take: args.limit,
        });
  return {
    collections: rows.map((c) => ({
      ...collectionHead(c),
      rules: c.rules ?? {},
      metadata: c.metadata ?? {},
      "created-at": ms(c.createdAt),
      "updated-at": ms(c.updatedAt),
    })),
    total: ids.size,
  };
}
