// POST, DELETE /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/reactions/{reaction_id}
// – the signed-in reader gives or takes back a reaction
import { addReaction, removeReaction } from "@/server/engagement/reactions";
import { REACTION_IDS, ZReactionBody, ZReactionParams } from "@/server/engagement/reactions.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** Both methods: the same scheme, inputs and answer; `change` gives or takes back the reaction. */
const reactionRoute = (change: typeof addReaction, summary: string) =>
  apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZReactionParams,
      body: ZReactionBody,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.reaction,
      summary,
    },
    async ({ db, account, user, params }) =>
      json(
        await change(db, {
          accountId: account.id,
          user,
          encodedUrl: params.encoded_url,
          commentId: params.comment_id,
          reactionId: params.reaction_id,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  );

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: reactionRoute(
    addReaction,
    `Give the reader's reaction (${REACTION_IDS.join(", ")}) to a visible comment: {jwt} → {comment} with the counts in reactions; again: unchanged (one per reader, comment and reaction). 401 without jwt, 404 for a comment not visible on this page of this account.`,
  ),
  DELETE: reactionRoute(
    removeReaction,
    "Take back the reader's reaction: jwt in the query (or the body) → {comment}; without that reaction: unchanged, 200. 401 without jwt, 404 for a comment not visible on this page of this account.",
  ),
});
