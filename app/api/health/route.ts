// GET /api/health – 200 when the database answers, 503 when it does not.
import { getDatabase } from "@/server/db";
import { backgroundEngineState } from "@/server/jobs/background";
import { checkHealth } from "@/server/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const report = await checkHealth(getDatabase, { background: backgroundEngineState() });
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
