// GET|POST /api/trpc/* – the dashboard's tRPC API (server/trpc).
import { randomUUID } from "node:crypto";

import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { requestIdFrom } from "@/server/http/edge.js";
import { foreignRoutes } from "@/server/http/foreign-routes";
import { log } from "@/server/log";
import { appRouter } from "@/server/trpc/root";
import { createTRPCContext } from "@/server/trpc/trpc";

export const dynamic = "force-dynamic";

async function handler(request: Request): Promise<Response> {
  // One id per request, as on every REST response: in the X-Request-Id header and in the log line
  // of an unexpected failure, so a report from the dashboard can be found in the logs.
  // scripts/serve.mjs has given it one; a direct call (tests) gets one here.
  const requestId = requestIdFrom(request.headers.get("x-request-id")) ?? randomUUID();
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createTRPCContext({ requestId }),
    onError({ path, error }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        log.error("tRPC procedure failed", { requestId, path: path ?? "(unknown)", error: error.cause ?? error });
    },
  });
  // A mutation answers once this process heard what it committed (server/cache/process-cache.ts).
  if (request.method === "POST") await ownWritesHeard(await getDb());
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

// Other methods: a 405 in the API's JSON error shape (server/http/foreign-routes.ts); tRPC answers
// its own errors, a body that does not parse among them, in its JSON shape.
export const { GET, POST, PUT, PATCH, DELETE } = foreignRoutes(handler, {
  served: ["GET", "POST"],
  library: "tRPC",
  answersMalformedJson: true,
});
