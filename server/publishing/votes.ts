/**
 * Story votes: a logged-in member votes a published story up (+1) or down (−1). One vote per
 * member per story; voting again changes it. Totals: `up` and `down` count the votes, `total` is
 * the net score (up − down), the number a story's `votes` field carries.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { TVoteTotals } from "./votes.schema";

type VoteWire = { "story-id": string; magnitude: number; "member-id": number };

/** The published story `storyId` of the account, or NOT_FOUND (drafts and other accounts' stories alike). */
async function assertPublishedStory(db: Db, accountId: number, storyId: string): Promise<void> {
  const story = await db.story.findFirst({
    where: { id: storyId, accountId, status: "PUBLISHED" },
    select: { id: true },
  });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
}

/**
 * Record the member's vote, or change it. One INSERT … ON CONFLICT DO UPDATE: parallel votes of
 * the same member on the same story end as one row holding the last magnitude written.
 */
export async function castVote(
  db: Db,
  args: { accountId: number; storyId: string; memberId: number; magnitude: 1 | -1; now: Date },
): Promise<{ vote: VoteWire; votes: TVoteTotals }> {
  await assertPublishedStory(db, args.accountId, args.storyId);
  await db.$executeRaw`
    INSERT INTO story_votes (story_id, member_id, magnitude, created_at, updated_at)
    VALUES (${args.storyId}::uuid, ${args.memberId}, ${args.magnitude}, ${args.now}, ${args.now})
    ON CONFLICT (story_id, member_id) DO UPDATE SET magnitude = EXCLUDED.magnitude, updated_at = EXCLUDED.updated_at`;
  return {
    vote: { "story-id": args.storyId, magnitude: args.magnitude, "member-id": args.memberId },
    votes: await voteTotals(db, args.storyId),
  };
}

/** The story's totals and the member's own vote (null when they have not voted). */
export async function getStoryVotes(
  db: Db,
  args: { accountId: number; storyId: string; memberId: number },
): Promise<{ votes: TVoteTotals; "my-vote": number | null }> {
  await assertPublishedStory(db, args.accountId, args.storyId);
  const [votes, mine] = await Promise.all([
    voteTotals(db, args.storyId),
    db.storyVote.findUnique({
      where: { storyId_memberId: { storyId: args.storyId, memberId: args.memberId } },
      select: { magnitude: true },
    }),
  ]);
  return { votes, "my-vote": mine?.magnitude ?? null };
}

/** The story's totals, as the database's triggers keep them (story_vote_totals). */
async function voteTotals(db: Db, storyId: string): Promise<TVoteTotals> {
  const kept = await db.storyVoteTotal.findUnique({ where: { storyId }, select: { up: true, down: true } });
  const up = kept?.up ?? 0;
  const down = kept?.down ?? 0;
  return { total: up - down, up, down };
}
