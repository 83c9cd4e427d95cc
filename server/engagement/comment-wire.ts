/**
 * Comments as the API answers them (spec §4.1's comment object): authors, reactions, counts and
 * mentions read for a list of comments at once (a list made a reader's own: comment-viewer.ts).
 */
import { nullPrototypeRecord, type NullPrototypeRecord } from "@/server/own-keys";

import type { Db } from "../db/client";
import type { Member, Page } from "../generated/prisma/client";
import { commentAuthorsOf, type CommentAuthor } from "../members/identities";
import { ERASED_SOURCE } from "../members/members.schema";
import { mentionsOf } from "./comment-bodies";
import { realmCommentCount, type WireComment } from "./comment-queries";
import type { TCommentAuthor, TCommentOp, TCommentWire } from "./comments.schema";
import { guestAuthorWire } from "./guests";

type WireOptions = {
  placeholders?: boolean;
  /** The signed-in reader the answer is for: each comment gets `my_reactions`, theirs. */
  viewerMemberId?: number | null;
  /**
   * The comments were just created by one author (the create answer): they have no reactions yet,
   * and the author's publisher-JWT id is this (null for a guest), so neither is read.
   */
  justCreatedBy?: { jwtId: string | null };
  /** The realm count, when the caller has it already. */
  realmCount?: number;
  /** Each comment's reaction counts, when the caller read them with the comments (one not in it has none). */
  reactions?: ReadonlyMap<number, Record<string, number>>;
  /** The comments' authors as commentAuthorsOf reads them, when the caller has them already. */
  authors?: ReadonlyMap<number, CommentAuthor>;
};

/** The member fields a comment's author is answered with (authorWire): the rest is not read. */
export const AUTHOR_FIELDS = {
  id: true,
  name: true,
  avatarUrl: true,
  username: true,
  bio: true,
  source: true,
} as const;

export function authorWire(
  member: Pick<Member, "id" | "name" | "avatarUrl" | "username" | "bio"> & { source?: string },
): TCommentAuthor {
  return {
    // An erased reader's tombstone (docs/privacy.md "Erasure"): the widgets say "deleted reader".
    ...(member.source === ERASED_SOURCE ? { erased: true as const } : {}),
    id: member.id,
    name: member.name,
    avatar: member.avatarUrl,
    slug: member.username ?? `reader-${member.id}`,
    guest: false,
    bio: member.bio ?? "",
    accounts: [],
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Comments as the API answers them, in the order given (one query per related thing): of one
 * page, or of several (the activity feed) with their pages by id.
 */
export async function toWire(
  db: Db,
  pages: Page | ReadonlyMap<number, Page>,
  comments: readonly WireComment[],
  options: WireOptions = {},
): Promise<TCommentWire[]> {
  if (comments.length === 0) return [];
  const ids = comments.map((c) => c.id);
  const viewer = options.viewerMemberId ?? null;
  const created = options.justCreatedBy;
  const [reactions, realmCount, authors, viewerReactions] = await Promise.all([
    created ? new Map<number, Record<string, number>>() : (options.reactions ?? reactionCounts(db, ids)),
    options.realmCount ?? realmCommentCount(db, comments[0]!.accountId),
    created
      ? null
      : (options.authors ??
        commentAuthorsOf(
          db,
          comments.map((c) => c.authorId),
        )),
    viewer === null ? Promise.resolve(new Map<number, string[]>()) : reactionsOfMember(db, ids, viewer),
  ]);
  // The create's answer: its one author's id is the jwt's (none for a guest).
  const createdIds = created?.jwtId ? [created.jwtId] : [];
  const jwtIdsOf = (memberId: number): readonly string[] =>
    created ? createdIds : (authors?.get(memberId)?.jwtIds ?? []);
  const mine = viewerReactions;
  return comments.map((c) => {
    const page = "accountId" in pages ? pages : pages.get(c.pageId)!;
    const placeholder = options.placeholders === true && (c.hiddenAt !== null || c.deletedAt !== null);
    const ops = placeholder ? [] : ((c.body as { ops?: TCommentOp[] }).ops ?? []);
    return {
      id: c.id,
      comment_realm_id: c.accountId,
      page_id: c.pageId,
      body: { ops },
      created_at: c.createdAt.toISOString(),
      parent_comment_id: c.parentCommentId,
      // The comment it answers: its parent, or the reply it answered under that parent.
      reply_to_id: c.parentCommentId === null ? null : (c.replyToId ?? c.parentCommentId),
      author_id: c.authorId,
      hidden_by_id: c.hiddenById,
      hidden_at: iso(c.hiddenAt),
      deleted_by_id: c.deletedById,
      deleted_at: iso(c.deletedAt),
      reactions: reactions.get(c.id) ?? {},
      edited_at: iso(c.editedAt),
      is_spam: c.isSpam,
      is_published: c.isPublished,
      toxicity: c.toxicity,
      page_url: page.url,
      hero_image_url: page.heroImageUrl,
      headline: page.headline,
      hidden: c.hiddenAt !== null,
      deleted: c.deletedAt !== null,
      realm_comment_count: realmCount,
      is_page_author: c.pageAuthor || jwtIdsOf(c.authorId).some((id) => page.authorIds.includes(id)),
      author:
        c.confidential || (placeholder && c.deletedAt !== null)
          ? null
          : c.guest
            ? guestAuthorWire(c, c.author)
            : authorWire(c.author),
      mentions: mentionsOf(ops),
      ...(viewer === null ? {} : { my_reactions: mine.get(c.id) ?? [] }),
    };
  });
}

/** Reaction id → how many gave it, for each of the comments `ids` that has any. */
async function reactionCounts(db: Db, ids: readonly number[]): Promise<Map<number, NullPrototypeRecord<number>>> {
  const groups = await db.commentReaction.groupBy({
    by: ["commentId", "reactionId"],
    where: { commentId: { in: [...ids] } },
    _count: { _all: true },
    orderBy: [{ commentId: "asc" }, { reactionId: "asc" }],
  });
  const reactions = new Map<number, NullPrototypeRecord<number>>();
  for (const g of groups) {
    const map = reactions.get(g.commentId) ?? nullPrototypeRecord<number>();
    map[g.reactionId] = g._count._all;
    reactions.set(g.commentId, map);
  }
  return reactions;
}

/** The reaction ids `memberId` gave to each of the comments `ids` (my_reactions), in the order given. */
export async function reactionsOfMember(
  db: Db,
  ids: readonly number[],
  memberId: number,
): Promise<Map<number, string[]>> {
  const rows = await db.commentReaction.findMany({
    where: { commentId: { in: [...ids] }, memberId },
    select: { commentId: true, reactionId: true },
    orderBy: { id: "asc" },
  });
  const mine = new Map<number, string[]>();
  for (const r of rows) mine.set(r.commentId, [...(mine.get(r.commentId) ?? []), r.reactionId]);
  return mine;
}
