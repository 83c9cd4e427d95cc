// Runs once when the Next.js server starts: start hearing about changes other instances commit
// (server/cache/start.ts), and pick the engine of background work for this process
// (server/background/start.ts): Inngest when configured, the local runner otherwise.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getEnv } = await import("./env.js");
  const { startCacheInvalidation } = await import("./server/cache/start");
  startCacheInvalidation();
  if (getEnv().inngestEnabled) {
    const { handJobsToInngest } = await import("./inngest/hand-off");
    handJobsToInngest();
  } else {
    const { startLocalRunner } = await import("./server/background/start");
    startLocalRunner();
  }
}

/**
 * A page, route or action that failed on the server: one log line with the request's id (given by
 * scripts/serve.mjs) and Next.js's error digest, the reference the dashboard's error page shows
 * (app/(admin)/admin/error.tsx), so a reported reference leads to the error.
 */
export async function onRequestError(
  error: unknown,
  request: { path: string; method: string; headers: Record<string, string | string[] | undefined> },
  context: { routerKind: string; routePath: string; routeType: string },
) {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { log } = await import("./server/log");
  const requestId = request.headers["x-request-id"];
  log.error("page render failed", {
    requestId: Array.isArray(requestId) ? requestId[0] : requestId,
    digest: (error as { digest?: unknown } | null)?.digest,
    method: request.method,
    path: request.path.slice(0, 500),
    route: context.routePath,
    routeType: context.routeType,
    error,
  });
}
