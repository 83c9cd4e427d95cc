// GET /api/v1/accounts/{account_id}/ugc/me?jwt= – the reader's own UGC submissions with their status
import { listMyUgc } from "@/server/engagement/ugc";
import { ZMyUgcQuery, ZUgcParams } from "@/server/engagement/ugc.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZUgcParams,
      query: ZMyUgcQuery,
      cors: true,
      summary:
        "The jwt's reader's submissions (401 without), newest first: {items: [submission], next_cursor}; status pending|approved|rejected (filter with status). limit 1 to 50 (default 20); cursor: the previous answer's next_cursor.",
    },
    async ({ db, account, user, query }) =>
      json(await listMyUgc(db, { accountId: account.id, user, query }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
