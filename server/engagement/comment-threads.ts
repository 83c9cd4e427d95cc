/**
 * Threads of a page as lists answer them: top-level comments, each with its visible replies, and
 * the Q&A rule of a page (comment-list.ts, comment-viewer.ts).
 */
import "server-only";

import type { Db } from "../db/client";
import type { Page } from "../generated/prisma/client";
import { commentAuthorsOf } from "../members/identities";
import { threadRows, type QaPage } from "./comment-queries";
import { toWire } from "./comment-wire";
import type { TCommentWire, TSortOrder } from "./comments.schema";

/** The Q&A rule of a page: its author ids answer questions (null: no Q&A page). */
export function qaOf(page: Pick<Page, "qaMode" | "authorIds">): QaPage {
  return page.qaMode ? { authorIds: page.authorIds } : null;
}

/**
 * The comments `ids` of `page` as the anonymous list answers them, in that order, each with its
 * visible replies (the parent is listed: a reply's own flags make it visible). `realmCount`: the
 * realm count when the caller read it already.
 */
export async function threadsOf(
  db: Db,
  page: Page,
  ids: readonly number[],
  options: { childOrder: TSortOrder; realmCount?: number },
): Promise<TCommentWire[]> {
  if (ids.length === 0) return [];
  const rows = await threadRows(db, { ids, childOrder: options.childOrder });
  const authors = await commentAuthorsOf(
    db,
    rows.map((r) => r.authorId),
  );
  // Every comment has its author (the foreign key cascades).
  const withAuthors = rows.map((r) => ({ ...r, author: authors.get(r.authorId)!.author }));
  const found = new Map(withAuthors.map((r) => [r.id, r]));
  const parents = ids.flatMap((id) => found.get(id) ?? []);
  const replies = withAuthors.filter((r) => r.parentCommentId !== null);
  const wires = await toWire(db, page, [...parents, ...replies], {
    placeholders: true,
    reactions: new Map(rows.map((r) => [r.id, r.reactions ?? {}])),
    authors,
    realmCount: options.realmCount,
  });
  const byId = new Map(wires.map((w) => [w.id, w]));
  const comments = parents.map((p) => ({ ...byId.get(p.id)!, replies: [] as TCommentWire[] }));
  const tops = new Map(comments.map((c) => [c.id, c]));
  for (const r of replies) tops.get(r.parentCommentId!)?.replies.push(byId.get(r.id)!);
  return comments;
}
