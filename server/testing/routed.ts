/**
 * Calling a path as serve.mjs hands it to Next.js when it routes it past the router
 * (server/http/edge.js ROUTED_PATHS): to /api/routed, with the path, its parameters and its
 * query behind a ticket, released once answered.
 */
import { expect } from "vitest";

import { releaseRouted, ROUTED_HEADER, routeRequest } from "@/server/http/edge.js";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * `method` on `target` (path and query, as sent) through /api/routed, whose route file the caller
 * passes (app/api/routed/route.ts: server/ does not import app/); fails unless the path is routed.
 */
export async function callRouted(
  routed: Record<Method, Handler>,
  method: Method,
  target: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const ticket = routeRequest(target);
  expect(ticket?.url, target).toBe("/api/routed");
  try {
    return await routed[method](
      new Request(`http://localhost${ticket!.url}`, {
        method,
        headers: { host: "localhost", [ROUTED_HEADER]: ticket!.header, ...init.headers },
        body: init.body,
      }),
      { params: Promise.resolve({}) },
    );
  } finally {
    releaseRouted(ticket!.header);
  }
}
