// POST /api/v1/bulk-request – turn bulk requests into a cacheable GET: 303 to /api/v1/bulk-request/{key}
import { apiRoute, routes } from "@/server/http/route";
import { encodeBulkKey, parseBulkRequests } from "@/server/publishing/bulk";
import { ZBulkBody } from "@/server/publishing/content.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZBulkBody,
      bodyTypes: ["json", "text-json"],
      summary:
        "The body of POST /api/v1/bulk (JSON, or JSON sent as text/plain) → 303 with a relative Location /api/v1/bulk-request/<key>, whose GET answers {results}. 413 when too large for a URL.",
    },
    async ({ body }) => {
      parseBulkRequests(body.requests);
      const location = `/api/v1/bulk-request/${encodeBulkKey(body.requests)}`;
      return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
    },
  ),
});
