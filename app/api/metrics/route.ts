// GET /api/metrics – Prometheus metrics of this instance (requests, latency, jobs, webhook deliveries).
import { getDb } from "@/server/db";
import { apiRoute, routes } from "@/server/http/route";
import { metricsText } from "@/server/metrics";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "operator",
      produces: "any",
      summary:
        "Prometheus metrics of this instance: requests and latency per route, jobs pending, overdue and failed, webhook deliveries by status (text exposition format).",
    },
    async () => {
      const { contentType, body } = await metricsText(getDb);
      return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
    },
  ),
});
