// GET /api/bench/empty/{id} – the benchmark's second baseline (npm run bench): what every API route
// costs before its own work. A dynamic path (as /stories/{id}/access is) through apiRoute: request
// id, Accept, the path's parameter validated, metrics, the JSON answer. No database, no
// authentication. Harmless to leave on: it answers {} and reads nothing.
import { z } from "zod";

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
    async () => json({}),
  ),
});
