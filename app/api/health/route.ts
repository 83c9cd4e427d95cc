// GET /api/health – 200 when the database answers, 503 when it does not.
import { getDatabase } from "@/server/db";
import { checkHealth } from "@/server/health";
import { apiRoute, routes } from "@/server/http/route";
import { backgroundEngineState } from "@/server/jobs/background";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute({ auth: "public", summary: "Database and background engine status (no authentication)." }, async () => {
    const report = await checkHealth(getDatabase, { background: backgroundEngineState() });
    return Response.json(report, {
      status: report.status === "ok" ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    });
  }),
});
