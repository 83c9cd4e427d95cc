// GET /api/health – 200 when every dependency answers (the database; Redis when rate limits live there); 503 naming
// the one that does not, or "stopping" while the process drains after SIGTERM.
import { getEnv } from "@/env.js";
import { backgroundEngineState } from "@/server/background/start";
import { cacheState } from "@/server/cache/process-cache";
import { getDatabase } from "@/server/db";
import { checkHealth } from "@/server/health";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { getRateLimitStore } from "@/server/rate-limit/store";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      summary:
        "Each dependency's status (database; Redis when rate limits live there) and the background engine's: 200 when all answer, 503 naming the one that does not.",
    },
    async () => {
      const store = getEnv().RATE_LIMIT_STORE === "redis" ? await getRateLimitStore() : null;
      const report = await checkHealth(getDatabase, {
        background: backgroundEngineState(),
        cacheInvalidation: cacheState().mode,
        probeRedis: store?.probe ? () => store.probe!() : undefined,
        // Set by scripts/serve.mjs when SIGTERM comes: load balancers stop sending while it drains.
        stopping: (globalThis as { mastheadStopping?: boolean }).mastheadStopping === true,
      });
      return json(report, {
        status: report.status === "ok" ? 200 : 503,
        headers: { "Cache-Control": "no-store" },
      });
    },
  ),
});
