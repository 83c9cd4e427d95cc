/**
 * A reader's own comments awaiting review on a page (docs/engagement.md "Held comments, seen by
 * their author"): the comment widget asks for them with the thread, so a held comment stays
 * visible to its author, marked as awaiting review, after a reload too, and to nobody else.
 *
 * - The reader is the JWT's member, found, never created: a reader never seen has none.
 * - Awaiting review: the reader's comments on the page that are unpublished, undecided (a
 *   moderator's rejection or spam decision is not "awaiting"), not deleted and not hidden. Held
 *   as spam by the scorer too: the reader is not told the scorer's verdict.
 * - Guests share one member and have no JWT: they are never answered another guest's comment.
 * - The comments come in the list's wire shape (comment-wire.ts), with `is_published: false`,
 *   oldest first, at most AWAITING_REVIEW_MAX.
 */
import "server-only";

import type { ApiUser } from "../../../auth/api-auth";
import type { Db } from "../../../db/client";
import { findJwtMember } from "../../../members/identities";
import { AUTHOR_FIELDS, toWire } from "../../comment-wire";
import type { TCommentWire } from "../../comments.schema";
import { decodePageId, findPage } from "../../pages";

/** At most this many comments in one answer (a reader rarely has more than a few waiting). */
const AWAITING_REVIEW_MAX = 50;

/** The JWT reader's comments on the page that wait for a moderator. */
export async function listAwaitingReview(
  db: Db,
  args: { accountId: number; encodedUrl: string; user: ApiUser },
): Promise<{ comments: TCommentWire[] }> {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const [page, member] = await Promise.all([
    findPage(db, args.accountId, url),
    findJwtMember(db, { accountId: args.accountId, userId: args.user.id }),
  ]);
  if (!page || !member) return { comments: [] };
  const rows = await db.comment.findMany({
    where: {
      accountId: args.accountId,
      pageId: page.id,
      authorId: member.id,
      isPublished: false,
      moderationState: "UNDECIDED",
      deletedAt: null,
      hiddenAt: null,
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: AWAITING_REVIEW_MAX,
    include: { author: { select: AUTHOR_FIELDS } },
  });
  return { comments: await toWire(db, page, rows, { viewerMemberId: member.id }) };
}
