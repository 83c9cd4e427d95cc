/** Authors: the bylines stories carry. Deleting is refused (409) while any story carries the byline. */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { authorToWire } from "../../story-view";
import { assertImageRefsAllowed } from "../image-refs";
import {
  ZCreateAuthorInput,
  ZListInput,
  ZUpdateAuthorInput,
  type TCreateAuthorInput,
  type TListInput,
  type TUpdateAuthorInput,
} from "../organise.schema";
import { cleanOptionalHtml } from "../sanitize";
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
import { recordQuietTaxonomyChange, recordTaxonomyChange, withStoryCount } from "./changes";

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

const AUTHORS = {
  what: "Author",
  table: "authors",
  soft: false,
  findFirst: (db, where) => db.author.findFirst({ where, select: AUTHOR_SELECT }),
  findMany: (db, args) => db.author.findMany({ ...args, select: AUTHOR_SELECT }),
  count: (db, where) => db.author.count({ where }),
} satisfies OwnedRows<AuthorRow> &
  ListedRows<AuthorRow, Prisma.AuthorWhereInput, Prisma.AuthorOrderByWithRelationInput[]>;

/**
 * An author in its webhook event (../taxonomy-events.ts): the content API's fields (../../story-view.ts),
 * without its metadata, which the editor's row does not load.
 */
const authorEventItem = (author: AuthorRow) => {
  const { metadata: _metadata, ...item } = authorToWire({ ...author, metadata: null });
  return item;
};
type AuthorView = ReturnType<typeof withStoryCount<AuthorRow>>;

export async function listAuthors(
  db: Db,
  { actor, ...input }: { actor: Actor } & TListInput,
): Promise<{ authors: AuthorView[]; total: number }> {
  const { q, limit, offset } = parseInput(ZListInput, input);
  const { rows, total } = await listOwnedPage(db, AUTHORS, {
    actor,
    where: searchWhere(q, ["name", "slug", "email"]),
    orderBy: [{ name: "asc" }, { id: "asc" }],
    limit,
    offset,
  });
  return { authors: rows.map(withStoryCount), total };
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
    return withStoryCount(author);
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
    const current = await getOwnedOrThrow(tx, AUTHORS, { actor, id });
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
    return withStoryCount(author);
  });
}

/** Refused (409) while any story carries the byline. */
export async function deleteAuthor(db: Db, args: { actor: Actor; id: number; now: Date }): Promise<{ deleted: true }> {
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    // Locked before counting bylines, like sections (../shared.ts lockRows).
    const current = await getOwnedOrThrow(tx, AUTHORS, { actor, id: args.id, lock: true });
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
