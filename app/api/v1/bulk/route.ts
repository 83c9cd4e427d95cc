// POST /api/v1/bulk – several named story lists and collections in one request
import { callerContext } from "@/server/http/content-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { parseBulkRequests, runBulk } from "@/server/publishing/bulk";
import { ZBulkBody } from "@/server/publishing/content.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisher",
      body: ZBulkBody,
      bodyTypes: ["json", "text-json"],
      summary:
        'Bulk read: {requests: {<name>: {_type: "collection", slug, limit, story-fields…} | {_type: "stories", story-group, section-id, limit, fields…}}} → {results: {<name>: …}} (at most 25 requests).',
    },
    async ({ db, req, publisher, body }) => {
      const requests = parseBulkRequests(body.requests);
      // The server key gets whole stories; other callers what the account's setting gives.
      const { ctx } = await callerContext(db, req, publisher);
      const { results } = await runBulk(db, { ctx, requests });
      return json({ results }, { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
