// GET /api/v1/accounts/{account_id}/pages?page_ids=<b64>,<b64>… – comment counts of pages (spec §4.1)
import { z } from "zod";

import { pageCommentCounts } from "@/server/engagement/comments";
import { COMMENTS_PURGE_KEY } from "@/server/engagement/comments-cache";
import { ZPageCountsQuery } from "@/server/engagement/comments.schema";
import { cachedRead } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: z.object({ account_id: z.string() }),
      query: ZPageCountsQuery,
      cors: true,
      summary:
        "Visible comments per page: [{url, comments_count}] in the order of page_ids (comma-separated base64 page URLs, at most 100; unknown pages count 0).",
    },
    // Kept in the response cache until a write purges the account's "comments" key (a jwt changes nothing).
    async ({ db, req, url, account, query }) =>
      cachedRead(
        req,
        // The account's canonical path with the query as sent (not parsed again: 8 kB of page ids).
        { pathname: `/api/v1/accounts/${account.id}/pages`, search: url.search },
        account.id,
        async () => ({
          body: await pageCommentCounts(db, { accountId: account.id, pageIds: query.page_ids }),
          tags: [COMMENTS_PURGE_KEY],
        }),
        { ignoreParams: ["jwt"], cacheControl: "no-store" },
      ),
  ),
});
