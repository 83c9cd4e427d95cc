// GET /api/bench/empty/{id} – the benchmark's second baseline (npm run bench): what every API route
// costs before its own work. A dynamic path (as /stories/{id}/access is) through apiRoute: request
// id, Accept, the path's parameter validated, metrics, the JSON answer. No database, no
// authentication. Served only when BENCH_ROUTES is on (the bench sets it on the instances it
// starts); otherwise 404 NOT_FOUND, as for any unknown path.
import { z } from "zod";

import { getEnv } from "@/env.js";
import { AppError } from "@/server/errors";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: z.object({ id: z.string().min(1).max(100) }),
      summary: "The benchmark's second baseline: an empty answer ({}) through apiRoute on a dynamic path.",
    },
    async () => {
      if (!getEnv().BENCH_ROUTES) {
        throw new AppError("NOT_FOUND", "There is no endpoint at this path. See /docs/api for the API reference.");
      }
      return json({});
    },
  ),
});
