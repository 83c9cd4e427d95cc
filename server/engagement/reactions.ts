/**
 * Reactions on comments (docs/engagement.md, "Reactions").
 *
 * - A signed-in reader (publisher JWT → member) gives a reaction id (REACTION_IDS) to a visible
 *   comment of the page, at most once per comment and reaction id: the unique index (comment,
 *   member, reaction) keeps one row, and the insert skips a row that is there (ON CONFLICT DO
 *   NOTHING), so adding twice, even at the same moment, leaves one row and answers the same.
 * - Removing a reaction the reader does not have changes nothing (200): DELETE is idempotent.
 * - A comment of another page or account, or one that is not visible (hidden, deleted, spam,
 *   unpublished) is NOT_FOUND: readers cannot see it, so they cannot react to it.
 * - The answer is the comment as the other endpoints give it, `reactions` counting per id, with
 *   `my_reactions`, the reader's own.
 * - A banned reader (moderation/bans/bans.ts) is 403, for adding and removing alike.
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { findJwtMember, findOrCreateJwtMember } from "../members/identities";
import { toWire } from "./comment-wire";
import { VISIBLE } from "./comments";
import type { TCommentWire } from "./comments.schema";
import { assertNotBanned } from "./moderation/bans/bans";
import { decodePageId, findPage } from "./pages";
import type { TReactionId } from "./reactions.schema";

type ReactionArgs = {
  accountId: number;
  user: ApiUser;
  encodedUrl: string;
  commentId: number;
  reactionId: TReactionId;
  now: Date;
};

/** The visible comment `commentId` of the page `encodedUrl` names in the account (404 otherwise). */
async function visibleComment(db: Db, args: { accountId: number; encodedUrl: string; commentId: number }) {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const page = await findPage(db, args.accountId, url);
  const comment = page
    ? await db.comment.findFirst({
        where: { id: args.commentId, accountId: args.accountId, pageId: page.id, ...VISIBLE },
        select: { id: true },
      })
    : null;
  if (!page || !comment) throw new AppError("NOT_FOUND", "Comment not found on this page.");
  return { page, commentId: comment.id };
}

async function answer(
  db: Db,
  page: Awaited<ReturnType<typeof visibleComment>>["page"],
  commentId: number,
  memberId: number | null,
) {
  const comment = await db.comment.findUniqueOrThrow({ where: { id: commentId }, include: { author: true } });
  // my_reactions: the reader's own, so a client shows what it just gave or took back.
  const [wire] = await toWire(db, page, [comment], { viewerMemberId: memberId ?? 0 });
  return { comment: wire! };
}

/** Give the reader's reaction to a comment; giving it again changes nothing. */
export async function addReaction(db: Db, args: ReactionArgs): Promise<{ comment: TCommentWire }> {
  const { page, commentId } = await visibleComment(db, args);
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now });
  await withTransaction(db, async (tx) => {
    await tx.commentReaction.createMany({
      data: [{ commentId, memberId: member.id, reactionId: args.reactionId, createdAt: args.now }],
      skipDuplicates: true,
    });
  });
  return answer(db, page, commentId, member.id);
}

/** Take the reader's reaction back; without one, nothing changes. */
export async function removeReaction(db: Db, args: ReactionArgs): Promise<{ comment: TCommentWire }> {
  const { page, commentId } = await visibleComment(db, args);
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  if (member) {
    await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now });
    await withTransaction(db, async (tx) => {
      await tx.commentReaction.deleteMany({
        where: { commentId, memberId: member.id, reactionId: args.reactionId },
      });
    });
  }
  return answer(db, page, commentId, member?.id ?? null);
}
