// GET /api/v1/accounts/{account_id}/pages/{b64 url}/reactions – the reactions on a page (the page-reactions widget)
import { ZPageParams } from "@/server/engagement/comments.schema";
import { pageReactions } from "@/server/engagement/page-reactions";
import { ZPageReactionsQuery } from "@/server/engagement/reactions.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      query: ZPageReactionsQuery,
      cors: true,
      summary:
        "The reactions on a page: {page_url, reactions: {like, love, haha, wow, sad, angry: count}, total_count, my_reactions} (my_reactions: the ids the jwt's reader gave; [] without a jwt). A page nobody reacted to counts 0; nothing is created.",
    },
    async ({ db, account, user, params }) =>
      json(await pageReactions(db, { accountId: account.id, user, encodedUrl: params.encoded_url }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
