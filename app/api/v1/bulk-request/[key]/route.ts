// GET /api/v1/bulk-request/{key} – the results of the bulk requests a key stands for
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { decodeBulkKey, parseBulkRequests, runBulk } from "@/server/publishing/bulk";
import { ZBulkKeyParams } from "@/server/publishing/content.schema";
import { contentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZBulkKeyParams,
      summary: "Results of a bulk request made with POST /api/v1/bulk-request: {results: {<name>: …}}.",
    },
    async ({ req, db, publisher, params }) => {
      const requests = parseBulkRequests(decodeBulkKey(params.key), "params.key.requests");
      const ctx = contentContext(publisher);
      const { results, tags } = await runBulk(db, { ctx, requests });
      return contentResponse(req, { results }, { tags });
    },
  ),
});
