/**
 * Authors as the content API reads them: the list (GET /api/v1/authors, and the bare array of
 * GET /api/authors), one author, and an author's "collection" (their published stories, newest
 * first, in the shape of a collection so front ends page it like any other).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import type { TAuthorCollectionQuery, TAuthorListQuery } from "./reference.schema";
import { loadWireStories, orderByFor, publishedWhere, type ContentContext } from "./stories";
import { authorToWire } from "./story-view";

export type WireAuthor = ReturnType<typeof authorToWire>;

/** `text` as a literal for Prisma's `contains` (a LIKE pattern): %, _ and \ match only themselves. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, "\\$&");

/** One page of the account's authors, by name. */
export async function listPublicAuthors(db: Db, args: { accountId: number } & TAuthorListQuery) {
  const where: Prisma.AuthorWhereInput = { accountId: args.accountId };
  if (args.q) where.name = { contains: likeLiteral(args.q), mode: "insensitive" };
  const [total, rows] = await Promise.all([
    db.author.count({ where }),
    db.author.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: args.offset, take: args.limit }),
  ]);
  return { limit: args.limit, offset: args.offset, total, authors: rows.map(authorToWire) };
}

export async function getAuthor(db: Db, args: { accountId: number; authorId: number }): Promise<WireAuthor> {
  const author = await db.author.findFirst({ where: { id: args.authorId, accountId: args.accountId } });
  if (!author) throw new AppError("NOT_FOUND", "No author with this id.");
  return authorToWire(author);
}

/**
 * The author's published stories, newest first, as a collection body:
 * {id, slug, name, summary, template, automated, "total-count", items:[{id, type:"story", story}]}.
 * Stories are loaded and shaped as every story list is (stories.ts), `story-fields` projecting them.
 */
export async function getAuthorCollection(
  db: Db,
  { ctx, ...args }: { ctx: ContentContext; authorId: number } & TAuthorCollectionQuery,
) {
  const author = await db.author.findFirst({ where: { id: args.authorId, accountId: ctx.accountId } });
  if (!author) throw new AppError("NOT_FOUND", "No author with this id.");
  const where: Prisma.StoryWhereInput = {
    ...publishedWhere(ctx.accountId),
    authors: { some: { authorId: author.id } },
  };
  const [total, stories] = await Promise.all([
    db.story.count({ where }),
    loadWireStories(db, ctx, {
      where,
      orderBy: orderByFor("published"),
      skip: args.offset,
      take: args.limit,
      fields: args["story-fields"] ?? args.fields,
    }),
  ]);
  return {
    id: author.id,
    slug: author.slug,
    name: author.name,
    summary: author.bio ?? "",
    template: "author",
    automated: true,
    rules: { "author-ids": [author.id] },
    metadata: {},
    "collection-cache-keys": [`a/${ctx.view.publisherId}/${author.id}`],
    "total-count": total,
    author: authorToWire(author),
    items: stories.map((story) => ({ id: String(story.id), type: "story" as const, story })),
  };
}
