// Runs before Next.js routes a request (Next.js 16 "proxy", formerly middleware): answers in the
// API's JSON error shape what the framework would otherwise fail on itself with a 500 or an HTML
// page (server/http/edge.ts): unknown methods under /api/, undecodable paths anywhere.
// It also gives every request its id (X-Request-Id): the client's when it is a sane one, else a
// new one. Routes (apiRoute, tRPC) and the page error log (instrumentation.ts) read it from the
// request, and the response carries it, so what a user reports can be found in the log.
import { randomUUID } from "node:crypto";

import { NextResponse, type NextRequest } from "next/server";

import { edgeRefusal } from "./server/http/edge";
import { errorResponse } from "./server/http/errors";
import { requestIdFrom } from "./server/http/request-id";

export function proxy(request: NextRequest): Response {
  const requestId = requestIdFrom(request.headers.get("x-request-id")) ?? randomUUID();
  // The raw path, as the client sent it (nextUrl may already be normalised).
  const rawPath = new URL(request.url).pathname;
  const refusal = edgeRefusal(request.method, rawPath);
  if (refusal) return errorResponse(refusal, requestId);
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}

// Everything but the framework's own static files.
export const config = { matcher: "/((?!_next/static|_next/image).*)" };
