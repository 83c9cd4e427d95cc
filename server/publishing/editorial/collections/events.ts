/**
 * The webhook event and audit entry of every change to a collection: "collection-update"
 * (CONTENT), recorded in the change's transaction and delivered once it commits.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { Actor } from "../../../auth/actor";
import { changedBy } from "../../../auth/changed-by";
import type { Db } from "../../../db/client";
import type { Prisma } from "../../../generated/prisma/client";
import { emitWebhookEvent } from "../../../webhooks/deliveries";
import { readRules } from "./read";

type CollectionChange = "create" | "update" | "items" | "delete";

/** The audit action of each change to a collection. */
const COLLECTION_AUDIT_ACTIONS = {
  create: "collection.create",
  update: "collection.update",
  items: "collection.set_items",
  delete: "collection.delete",
} as const satisfies Record<CollectionChange, string>;

/** A change to a collection made here: its audit entry (with `audit` as metadata), then its event. */
export async function recordCollectionChange(
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
