// Runs before Next.js routes a request (Next.js 16 "proxy", formerly middleware): answers in the
// API's JSON error shape what the framework would otherwise fail on itself with a 500 or an HTML
// page (server/http/edge.ts): unknown methods under /api/, undecodable paths anywhere.
import { randomUUID } from "node:crypto";

import type { NextRequest } from "next/server";

import { edgeRefusal } from "./server/http/edge";
import { errorResponse } from "./server/http/errors";

export function proxy(request: NextRequest): Response | undefined {
  // The raw path, as the client sent it (nextUrl may already be normalised).
  const rawPath = new URL(request.url).pathname;
  const refusal = edgeRefusal(request.method, rawPath);
  return refusal ? errorResponse(refusal, randomUUID()) : undefined;
}

// Everything but the framework's own static files.
export const config = { matcher: "/((?!_next/static|_next/image).*)" };
