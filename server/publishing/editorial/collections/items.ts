/**
 * The items of manual collections: replacing them in order, and appending stories (the stories
 * list's bulk action). A collection never contains itself, directly or through nested
 * collections (422), so readers that expand nested collections always terminate.
 */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { assertImageRefsAllowed, collectImageRefs } from "../image-refs";
import { ZSetCollectionItemsInput, type TSetCollectionItemsInput } from "../organise.schema";
import { cleanMetadataOrThrow } from "../sanitize";
import { getOwnedOrThrow, lockCollectionItems, lockNesting, lockRows } from "../shared";
import { recordCollectionChange } from "./events";
import { COLLECTIONS, getCollection, type CollectionDetail } from "./read";

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

/** Refused (422) for an automated collection: its rules choose its stories. */
function assertManual(collection: { automated: boolean }, toDo: string): void {
  if (collection.automated) {
    throw new AppError(
      "UNPROCESSABLE",
      `This collection is automated: its rules choose its stories. Make it manual to ${toDo} by hand.`,
    );
  }
}

/** A collection's items changed: its time of change, its audit entry (`audit`) and its event. */
async function recordItemsChange(
  tx: Db,
  args: { actor: Actor; collectionId: number; now: Date; audit: Prisma.InputJsonObject },
): Promise<void> {
  await tx.collection.update({ where: { id: args.collectionId }, data: { updatedAt: args.now } });
  await recordCollectionChange(tx, { ...args, change: "items" });
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
    // Two concurrent saves of the same items run one after the other (../shared.ts lockCollectionItems).
    await lockCollectionItems(tx, input.id);
    const current = await getOwnedOrThrow(tx, COLLECTIONS, { actor, id: input.id });
    assertManual(current, "order items");
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
    await recordItemsChange(tx, {
      actor,
      collectionId: current.id,
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
    await lockCollectionItems(tx, collectionId);
    const current = await getOwnedOrThrow(tx, COLLECTIONS, { actor, id: collectionId });
    assertManual(current, "add stories");
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
    await recordItemsChange(tx, { actor, collectionId: current.id, now, audit: { added: added.length } });
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
