/**
 * Creating, editing and deleting collections (./read.ts says what they are). Every change writes
 * its audit entry and its "collection-update" event in its transaction (./events.ts).
 */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { assertMetadataImagesAllowed } from "../image-refs";
import {
  ZCreateCollectionInput,
  ZUpdateCollectionInput,
  type TCreateCollectionInput,
  type TUpdateCollectionInput,
} from "../organise.schema";
import { cleanMetadataOrThrow } from "../sanitize";
import { assertSlugChangeFree, assertSlugFree, defined, deletedSlug, getOwnedOrThrow, slugFromName } from "../shared";
import { emitCollectionUpdate, recordCollectionChange } from "./events";
import { COLLECTIONS, getCollection, type CollectionDetail } from "./read";

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
    await assertMetadataImagesAllowed(tx, { accountId: actor.accountId, metadata: input.metadata });
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
    const current = await getOwnedOrThrow(tx, COLLECTIONS, { actor, id: input.id });
    await assertSlugChangeFree(tx, "collection", { actor, slug: input.slug, current });
    await assertMetadataImagesAllowed(tx, {
      accountId: actor.accountId,
      metadata: input.metadata,
      previous: current.metadata,
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
    const current = await getOwnedOrThrow(tx, COLLECTIONS, { actor, id: args.id, lock: true });
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

/** Also used when a section goes (../taxonomy/sections.ts). */
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
