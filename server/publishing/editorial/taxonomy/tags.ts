/** Tags: free labels on stories. Deleting removes the tag and takes it off the stories that had it. */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { tagToWire } from "../../story-view";
import {
  ZCreateTagInput,
  ZListInput,
  ZUpdateTagInput,
  type TCreateTagInput,
  type TListInput,
  type TUpdateTagInput,
} from "../organise.schema";
import {
  assertSlugChangeFree,
  assertSlugFree,
  defined,
  getOwnedOrThrow,
  listOwnedPage,
  searchWhere,
  slugFromName,
  type ListedRows,
  type OwnedRows,
} from "../shared";
import { publishedStoryIdsOf } from "../taxonomy-events";
import { recordQuietTaxonomyChange, recordTaxonomyChange, withStoryCount } from "./changes";

const TAG_SELECT = {
  id: true,
  name: true,
  slug: true,
  metaDescription: true,
  updatedAt: true,
  _count: { select: { stories: true } },
} satisfies Prisma.TagSelect;
type TagRow = Prisma.TagGetPayload<{ select: typeof TAG_SELECT }>;
type TagView = ReturnType<typeof withStoryCount<TagRow>>;

const TAGS = {
  what: "Tag",
  table: "tags",
  soft: false,
  findFirst: (db, where) => db.tag.findFirst({ where, select: TAG_SELECT }),
  findMany: (db, args) => db.tag.findMany({ ...args, select: TAG_SELECT }),
  count: (db, where) => db.tag.count({ where }),
} satisfies OwnedRows<TagRow> & ListedRows<TagRow, Prisma.TagWhereInput, Prisma.TagOrderByWithRelationInput[]>;

export async function listTags(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListInput,
): Promise<{ tags: TagView[]; total: number }> {
  const { q, limit, offset } = parseInput(ZListInput, input);
  const { rows, total } = await listOwnedPage(db, TAGS, {
    actor,
    where: searchWhere(q, ["name", "slug"]),
    orderBy: [{ name: "asc" }, { id: "asc" }],
    limit,
    offset,
  });
  return { tags: rows.map(withStoryCount), total };
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
    return withStoryCount(tag);
  });
}

/** Rename a tag (and change its slug or description). */
export async function updateTag(db: Db, args: { actor: Actor; input: TUpdateTagInput; now: Date }): Promise<TagView> {
  const { actor, now } = args;
  const { id, ...input } = parseInput(ZUpdateTagInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await getOwnedOrThrow(tx, TAGS, { actor, id });
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
      item: tagToWire(tag), // the content API's fields (../../story-view.ts)
      previous: { name: current.name, slug: current.slug },
      now,
      audit: { targetId: id, metadata: { fields: Object.keys(defined(input)), from: current.name } },
    });
    return withStoryCount(tag);
  });
}

/** Removes the tag and takes it off every story that had it. */
export async function deleteTag(
  db: Db,
  args: { actor: Actor; id: number; now: Date },
): Promise<{ deleted: true; untaggedStories: number }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked first: of two deletes the second waits, then finds it gone (404) (../shared.ts lockRows).
    const current = await getOwnedOrThrow(tx, TAGS, { actor, id: args.id, lock: true });
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
