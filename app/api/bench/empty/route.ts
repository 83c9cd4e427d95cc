// GET /api/bench/empty – the benchmark baseline (npm run bench): an empty route handler.
// No database, no authentication, no work: what Next.js itself costs per request, so the content
// routes can be reported as a ratio of it. Harmless to leave on: it answers {} and reads nothing.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({});
}
