// GET /api/bench/empty – the benchmark's baseline (npm run bench): an empty route handler.
// No database, no authentication, no work: what Next.js itself costs per request, the row the
// cached answers' CPU is compared with. Served only when BENCH_ROUTES is on (the bench sets it on
// the instances it starts); otherwise a 404 in the API's error shape, as for any unknown path.
import { getEnv } from "@/env.js";

export const dynamic = "force-dynamic";

export function GET(): Response {
  if (!getEnv().BENCH_ROUTES) {
    return Response.json(
      {
        error: {
          code: "NOT_FOUND",
          message: "There is no endpoint at this path. See /docs/api for the API reference.",
        },
      },
      { status: 404 },
    );
  }
  return Response.json({});
}
