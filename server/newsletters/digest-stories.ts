/**
 * The stories a newsletter digest lists (./digest.ts makes the send, ./send-content.ts mails it):
 *
 * - a manual collection: its published stories in the collection's order;
 * - an automated collection: its rules evaluated when the digest is made and mailed, as the content
 *   API evaluates them (../publishing/collections.ts `automatedCollectionStories`): the published
 *   stories they match, newest first (or by last publication).
 *
 * A deleted collection, or another account's, lists nothing.
 */
import "server-only";

import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { automatedCollectionStories } from "../publishing/collections";

/** A digest lists at most this many stories. */
const DIGEST_STORIES = 10;

const STORY_FIELDS = {
  id: true,
  headline: true,
  summary: true,
  slug: true,
  heroImageS3Key: true,
  heroImageMetadata: true,
  publishedAt: true,
} satisfies Prisma.StorySelect;

type DigestStory = Prisma.StoryGetPayload<{ select: typeof STORY_FIELDS }>;

type Args = { accountId: number; collectionId: number };

/** The collection's story filter and order: null for a manual collection or one that is gone. */
async function automatedFilter(
  db: Db,
  args: Args,
): Promise<{ where: Prisma.StoryWhereInput; orderBy: Prisma.StoryOrderByWithRelationInput[] } | null | "gone"> {
  const row = await db.collection.findFirst({
    where: { id: args.collectionId, accountId: args.accountId, deletedAt: null },
    select: { automated: true, rules: true, sectionOf: { select: { id: true } } },
  });
  if (!row) return "gone";
  if (!row.automated) return null;
  const { where, orderBy } = await automatedCollectionStories(db, args.accountId, row);
  return { where, orderBy };
}

function manualWhere(args: Args, story: Prisma.StoryWhereInput = {}): Prisma.CollectionItemWhereInput {
  return {
    collectionId: args.collectionId,
    collection: { accountId: args.accountId, deletedAt: null },
    story: { status: "PUBLISHED", accountId: args.accountId, ...story },
  };
}

/** The published stories a digest of the collection lists now, in its order (at most DIGEST_STORIES). */
export async function digestStories(db: Db, args: Args): Promise<DigestStory[]> {
  const automated = await automatedFilter(db, args);
  if (automated === "gone") return [];
  if (automated) {
    return db.story.findMany({
      where: automated.where,
      orderBy: automated.orderBy,
      take: DIGEST_STORIES,
      select: STORY_FIELDS,
    });
  }
  const items = await db.collectionItem.findMany({
    where: manualWhere(args),
    orderBy: { position: "asc" },
    take: DIGEST_STORIES,
    select: { story: { select: STORY_FIELDS } },
  });
  return items.flatMap((i) => (i.story ? [i.story] : []));
}

/** How many stories of the collection's digest were published after `since` (every one, with no `since`). */
export async function digestFreshCount(db: Db, args: Args & { since: Date | null }): Promise<number> {
  const automated = await automatedFilter(db, args);
  if (automated === "gone") return 0;
  const published: Prisma.StoryWhereInput = args.since ? { publishedAt: { gt: args.since } } : {};
  if (automated) return db.story.count({ where: { AND: [automated.where, published] } });
  return db.collectionItem.count({ where: manualWhere(args, published) });
}
