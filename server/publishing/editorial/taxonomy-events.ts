/**
 * The CONTENT webhook events of what stories are filed under: renaming (any update) or deleting a
 * section, tag, author or entity records `<kind>-update` in the change's transaction, like
 * `collection-update` (./collections/events.ts):
 *
 * data = {
 *   <kind>,          the item as it is now (a deleted one: as it was, with "deleted-at")
 *   change,          "update" or "delete"
 *   previous,        {name, slug} before an update (null for a delete)
 *   "changed-by",    {id, name, email} of the editor
 *   "purge-keys"     the cache keys of every public response that showed the item (below)
 * }
 *
 * Purge keys (docs/publishing.md, Caching): the item's own responses and the lists of its kind,
 * `stories` (lists filtered by it: by section, tag or author, automated collections, search), and
 * `s/<story-id>` of every published story that carries it (a story response shows its sections,
 * tags, authors and entities). A section also appears in `config` and in its collection (`c/<id>`).
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import { changedBy } from "../../auth/changed-by";
import type { Db } from "../../db/client";
import { emitWebhookEvent } from "../../webhooks/deliveries";

type TaxonomyKind = "section" | "tag" | "author" | "entity";
type TaxonomyChange = "update" | "delete";

/** The event each kind sends (declared in CONTENT_EVENTS, server/webhooks/events.schema.ts). */
const TAXONOMY_EVENTS = {
  section: "section-update",
  tag: "tag-update",
  author: "author-update",
  entity: "entity-update",
} as const satisfies Record<TaxonomyKind, string>;

/** Purge keys of every public response that shows the item. Pure. */
function taxonomyPurgeKeys(
  kind: TaxonomyKind,
  args: { id: number; storyIds: readonly string[]; collectionId?: number | null },
): string[] {
  const stories = args.storyIds.map((id) => `s/${id}`);
  const own: Record<TaxonomyKind, string[]> = {
    section: ["config", ...(args.collectionId ? [`c/${args.collectionId}`] : []), "stories"],
    tag: [`t/${args.id}`, "stories"],
    author: [`a/${args.id}`, "authors", "stories"],
    entity: [`e/${args.id}`, "entities"],
  };
  return [...new Set([...own[kind], ...stories])];
}

/** Ids of the published stories that carry the item (only those are in public responses). */
export async function publishedStoryIdsOf(db: Db, kind: TaxonomyKind, id: number): Promise<string[]> {
  const published = { status: "PUBLISHED" as const };
  const rows =
    kind === "section"
      ? await db.storySection.findMany({ where: { sectionId: id, story: published }, select: { storyId: true } })
      : kind === "tag"
        ? await db.storyTag.findMany({ where: { tagId: id, story: published }, select: { storyId: true } })
        : kind === "author"
          ? await db.storyAuthor.findMany({ where: { authorId: id, story: published }, select: { storyId: true } })
          : await db.storyEntity.findMany({ where: { entityId: id, story: published }, select: { storyId: true } });
  return [...new Set(rows.map((row) => row.storyId))].sort();
}

/**
 * Record `<kind>-update` through `tx` (the change's transaction). `storyIds`: the published
 * stories carrying the item, read before a delete takes it off them.
 */
export async function emitTaxonomyEvent(
  tx: Db,
  args: {
    actor: Actor;
    kind: TaxonomyKind;
    change: TaxonomyChange;
    item: Record<string, unknown> & { id: number };
    previous?: { name: string; slug: string | null } | null;
    storyIds: readonly string[];
    collectionId?: number | null;
    now: Date;
  },
): Promise<void> {
  const { actor, kind } = args;
  await emitWebhookEvent(tx, {
    accountId: actor.accountId,
    kind: "CONTENT",
    name: TAXONOMY_EVENTS[kind],
    data: {
      [kind]: args.item,
      change: args.change,
      previous: args.previous ?? null,
      "changed-by": await changedBy(tx, actor),
      "purge-keys": taxonomyPurgeKeys(kind, {
        id: args.item.id,
        storyIds: args.storyIds,
        collectionId: args.collectionId,
      }),
    },
    occurredAt: args.now,
  });
}
