// GET|POST|PUT /api/inngest – the Inngest engine calls Masthead's background functions here. Served
// only when Inngest runs background work (INNGEST_* set); otherwise this path is the API's JSON 404
// like any path that has no endpoint (the local runner needs no endpoint).
import { serve } from "inngest/next";

import { getEnv } from "@/env.js";
import { functions, inngest } from "@/inngest";
import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/http/errors";

export const dynamic = "force-dynamic";

const served = getEnv().inngestEnabled ? serve({ client: inngest, functions }) : null;
type Handler = NonNullable<typeof served>["GET"];

function handle(method: "GET" | "POST" | "PUT"): Handler {
  return async (...args: Parameters<Handler>) => {
    if (served) return served[method](...args);
    return errorResponse(new AppError("NOT_FOUND", "Inngest is not configured on this Masthead."), crypto.randomUUID());
  };
}

export const GET = handle("GET");
export const POST = handle("POST");
export const PUT = handle("PUT");
