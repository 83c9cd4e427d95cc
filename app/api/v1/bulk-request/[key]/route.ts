// GET /api/v1/bulk-request/{key} – the results of the bulk requests a key stands for
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { decodeBulkKey, parseBulkRequests, runBulk } from "@/server/publishing/bulk";
import { ZBulkKeyParams } from "@/server/publishing/content.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: ZBulkKeyParams,
      summary: "Results of a bulk request made with POST /api/v1/bulk-request: {results: {<name>: …}}.",
    },
    async ({ db, ctx, params }) => {
      const requests = parseBulkRequests(decodeBulkKey(params.key), "params.key.requests");
      const { results, tags } = await runBulk(db, { ctx, requests });
      return { body: { results }, tags };
    },
  ),
});
