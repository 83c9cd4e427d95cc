// GET|POST /api/trpc/* – the dashboard's tRPC API (server/trpc).
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";

import { appRouter } from "@/server/trpc/root";
import { createTRPCContext } from "@/server/trpc/trpc";

export const dynamic = "force-dynamic";

function handler(request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: createTRPCContext,
    onError({ path, error }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[masthead] tRPC ${path ?? "(unknown)"} failed`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
