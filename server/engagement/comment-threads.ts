/**
 * Threads of a page as lists answer them: top-level comments, each with its visible replies, and
 * the Q&A rule of a page (comment-list.ts, comment-viewer.ts).
 */
import "server-only";

import type { Db } from "../db/client";
import type { Comment, Member, Page, Prisma } from "../generated/prisma/client";
import type { QaPage } from "./comment-queries";
import { AUTHOR_FIELDS, toWire } from "./comment-wire";
import type { TCommentWire, TSortOrder } from "./comments.schema";

const ORDER: Record<TSortOrder, Prisma.CommentOrderByWithRelationInput[]> = {
  newest: [{ createdAt: "desc" }, { id: "desc" }],
  oldest: [{ createdAt: "asc" }, { id: "asc" }],
  most_reacted: [{ reactionCount: "desc" }, { createdAt: "desc" }, { id: "desc" }],
};

/** The Q&A rule of a page: its author ids answer questions (null: no Q&A page). */
export function qaOf(page: Pick<Page, "qaMode" | "authorIds">): QaPage {
  return page.qaMode ? { authorIds: page.authorIds } : null;
}

type Row = Comment & { author: Pick<Member, keyof typeof AUTHOR_FIELDS> };

/**
 * The comments `ids` of `page` as the anonymous list answers them, in that order, each with its
 * visible replies (the parent is listed: a reply's own flags make it visible).
 */
export async function threadsOf(
  db: Db,
  page: Page,
  ids: readonly number[],
  options: { childOrder: TSortOrder },
): Promise<TCommentWire[]> {
  if (ids.length === 0) return [];
  const rows = await db.comment.findMany({
    where: { id: { in: [...ids] } },
    include: {
      author: { select: AUTHOR_FIELDS },
      replies: {
        where: { isPublished: true, isSpam: false, deletedAt: null, hiddenAt: null },
        orderBy: ORDER[options.childOrder],
        include: { author: { select: AUTHOR_FIELDS } },
      },
    },
  });
  const found = new Map(rows.map((r) => [r.id, r]));
  const parents = ids.flatMap((id) => found.get(id) ?? []);
  const replies: Row[] = parents.flatMap((p) => p.replies);
  const wires = await toWire(db, page, [...parents, ...replies], { placeholders: true });
  const byId = new Map(wires.map((w) => [w.id, w]));
  const comments = parents.map((p) => ({ ...byId.get(p.id)!, replies: [] as TCommentWire[] }));
  const tops = new Map(comments.map((c) => [c.id, c]));
  for (const r of replies) tops.get(r.parentCommentId!)?.replies.push(byId.get(r.id)!);
  return comments;
}
