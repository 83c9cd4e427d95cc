// POST /api/stories/{story-id}/votes – the logged-in member votes a published story up or down (again: changes the vote)
// GET /api/stories/{story-id}/votes – the story's vote totals and the member's own vote
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { ZStoryIdParams } from "@/server/publishing/content.schema";
import { castVote, getStoryVotes } from "@/server/publishing/votes";
import { ZVoteInput } from "@/server/publishing/votes.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "member",
      params: ZStoryIdParams,
      body: ZVoteInput,
      cors: true,
      rateLimit: { name: "story.vote", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        'Vote {magnitude: "1" | "-1"} as the logged-in member: {vote: {story-id, magnitude, member-id}, votes: {total, up, down}}; 401 when not logged in, 404 for an unknown or unpublished story.',
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson(
        await castVote(db, {
          accountId: publisher.accountId,
          storyId: params.storyId,
          memberId: member.member.id,
          magnitude: body.magnitude,
          now: new Date(),
        }),
      ),
  ),
  GET: apiRoute(
    {
      auth: "member",
      params: ZStoryIdParams,
      cors: true,
      summary:
        'The story\'s votes for the logged-in member: {votes: {total, up, down}, "my-vote": 1 | -1 | null}; total is up − down.',
    },
    async ({ db, publisher, member, params }) =>
      privateJson(
        await getStoryVotes(db, {
          accountId: publisher.accountId,
          storyId: params.storyId,
          memberId: member.member.id,
        }),
      ),
  ),
});
