/**
 * Entities (people, places, organisations …) with their named, ranked relationships to each
 * other. Deleting is soft (deletedAt); relationships stay, so restoring an entity loses nothing.
 */
import "server-only";

import { actorUserId, type Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma } from "../../../generated/prisma/client";
import { slugify } from "../../../text/slug";
import { parseInput } from "../../../validation";
import { assertMetadataImagesAllowed } from "../image-refs";
import {
  ZAddRelationshipInput,
  ZCreateEntityInput,
  ZListEntitiesInput,
  ZUpdateEntityInput,
  type TAddRelationshipInput,
  type TCreateEntityInput,
  type TListEntitiesInput,
  type TUpdateEntityInput,
} from "../organise.schema";
import { cleanMetadataOrThrow } from "../sanitize";
import {
  asObject,
  defined,
  getOwnedOrThrow,
  listOwnedPage,
  notFound,
  searchWhere,
  type ListedRows,
  type OwnedRows,
} from "../shared";
import { recordQuietTaxonomyChange, recordTaxonomyChange } from "./changes";

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

const ENTITIES = {
  what: "Entity",
  table: "entities",
  soft: true,
  findFirst: (db, where) => db.entity.findFirst({ where, select: ENTITY_SELECT }),
  findMany: (db, args) => db.entity.findMany({ ...args, select: ENTITY_SELECT }),
  count: (db, where) => db.entity.count({ where }),
} satisfies OwnedRows<EntityRow> &
  ListedRows<EntityRow, Prisma.EntityWhereInput, Prisma.EntityOrderByWithRelationInput[]>;

/** An entity in its webhook event (../taxonomy-events.ts). */
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
  metadata: asObject(metadata),
  storyCount: _count.stories,
  relationshipCount: _count.relations,
});
type EntityView = ReturnType<typeof entityView>;

export async function listEntities(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListEntitiesInput,
): Promise<{ entities: EntityView[]; total: number; types: string[] }> {
  const { q, type, limit, offset } = parseInput(ZListEntitiesInput, input);
  const [{ rows, total }, types] = await Promise.all([
    listOwnedPage(db, ENTITIES, {
      actor,
      where: { ...(type ? { type } : {}), ...searchWhere(q, ["name", "slug"]) },
      orderBy: [{ type: "asc" }, { name: "asc" }, { id: "asc" }],
      limit,
      offset,
    }),
    db.entity.findMany({
      where: { accountId: actor.accountId, deletedAt: null },
      distinct: ["type"],
      select: { type: true },
      orderBy: { type: "asc" },
    }),
  ]);
  return { entities: rows.map(entityView), total, types: types.map((t) => t.type) };
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
  const entity = await getOwnedOrThrow(db, ENTITIES, { actor, id });
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
    await assertMetadataImagesAllowed(tx, { accountId: actor.accountId, metadata: input.metadata });
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
    const current = await getOwnedOrThrow(tx, ENTITIES, { actor, id });
    await assertMetadataImagesAllowed(tx, { accountId: actor.accountId, metadata, previous: current.metadata });
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
    // Locked first: of two deletes the second waits, then finds it gone (404) (../shared.ts lockRows).
    const current = await getOwnedOrThrow(tx, ENTITIES, { actor, id: args.id, lock: true });
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
    await getOwnedOrThrow(tx, ENTITIES, { actor, id: input.fromId, field: "fromId" });
    await getOwnedOrThrow(tx, ENTITIES, { actor, id: input.toId, field: "toId" });
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
