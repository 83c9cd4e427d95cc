/**
 * What stories are filed under, in the dashboard: sections (./sections.ts), authors (./authors.ts),
 * tags (./tags.ts), and entities with their named, ranked relationships (./entities.ts). Every
 * function is scoped to the actor's account (another account's id is NOT_FOUND) and writes the
 * audit log; this file records their changes.
 *
 * Deleting, decided per kind (docs/publishing.md):
 * - section: soft (deletedAt), refused (409) while stories are filed under it or it has live
 *   subsections; its slug is freed and its section collection goes with it;
 * - author: refused (409) while stories carry the byline, otherwise removed;
 * - tag: removed, and taken off the stories that had it (a tag carries nothing else);
 * - entity: soft (deletedAt); its relationships stay, so restoring it loses nothing.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import type { Prisma } from "../../../generated/prisma/client";
import { emitTaxonomyEvent, publishedStoryIdsOf } from "../taxonomy-events";

/**
 * A section, author, tag or entity changed: its webhook event (../taxonomy-events.ts), then its
 * audit entry ("<kind>.<change>"), both through the change's transaction.
 */
export async function recordTaxonomyChange(
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
  await recordQuietTaxonomyChange(tx, {
    actor: event.actor,
    kind: event.kind,
    change: event.change,
    ...audit,
    now: event.now,
  });
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

/**
 * The audit entry of a change; alone for a change that announces no event (a creation, an entity
 * relation): the responses that list or show the item are purged by the database (its table
 * announces the keys).
 */
export async function recordQuietTaxonomyChange(tx: Db, args: TaxonomyAudit): Promise<void> {
  const { kind, change, ...entry } = args;
  await recordAudit(tx, { ...entry, action: `${kind}.${change}`, targetType: kind });
}

/** A row as the dashboard lists it: its columns and how many stories carry it. */
export function withStoryCount<Row extends { _count: { stories: number } }>({ _count, ...row }: Row) {
  return { ...row, storyCount: _count.stories };
}
