// POST, DELETE /api/v1/accounts/{account_id}/pages/{b64 url}/reactions/{reaction_id}
// – the signed-in reader gives or takes back a reaction to the page itself
import { addPageReaction, removePageReaction } from "@/server/engagement/page-reactions";
import { REACTION_IDS, ZPageReactionParams, ZReactionBody } from "@/server/engagement/reactions.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** Both methods: the same scheme, inputs and answer; `change` gives or takes back the reaction. */
const reactionRoute = (change: typeof addPageReaction, summary: string) =>
  apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZPageReactionParams,
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
          reactionId: params.reaction_id,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  );

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: reactionRoute(
    addPageReaction,
    `Give the reader's reaction (${REACTION_IDS.join(", ")}) to the page itself: {jwt} → the page's reactions as GET …/reactions answers them; again: unchanged (one per reader, page and reaction). The page is created on first use, on the publication's hosts only (403 otherwise). 401 without jwt, 403 for a banned reader.`,
  ),
  DELETE: reactionRoute(
    removePageReaction,
    "Take back the reader's reaction to the page: jwt in the query (or the body) → the page's reactions; without that reaction: unchanged, 200. 401 without jwt, 403 for a banned reader.",
  ),
});
