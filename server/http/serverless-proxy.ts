/**
 * The edge checks for serverless platforms (Vercel), where scripts/serve.mjs does not run: the
 * same rules (./edge.js) as a Next.js proxy, which `npm run vercel-build` installs as proxy.ts
 * (scripts/vercel-build.ts). Methods no route serves are answered 405, undecodable paths 400, in
 * the API's JSON error shape; every request gets its id (X-Request-Id). A client's copy of the
 * peer address header is removed: here nothing sets it, so no route could trust it.
 *
 * On a Node server it is not installed: there scripts/serve.mjs does the same in node:http, before
 * Next.js, at no cost to the routes (a proxy runs on every request).
 */
import { NextResponse, type NextRequest } from "next/server";

import { PEER_ADDRESS_HEADER } from "../security/peer-address.js";
import { edgeRefusal, PAGE_ADDRESS_HEADER, pageAddress, requestIdFrom } from "./edge.js";

export function serverlessProxy(request: NextRequest): Response {
  const requestId = requestIdFrom(request.headers.get("x-request-id")) ?? crypto.randomUUID();
  // The path as the client sent it (nextUrl may already be normalised).
  const refusal = edgeRefusal(request.method, new URL(request.url).pathname);
  if (refusal) {
    const { status, code, message, details, headers } = refusal;
    return Response.json(
      { error: { code, message, ...(details ? { details } : {}) } },
      { status, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store", ...headers } },
    );
  }
  const forwarded = new Headers(request.headers);
  forwarded.set("x-request-id", requestId);
  const page = pageAddress(new URL(request.url).pathname + new URL(request.url).search);
  if (page) forwarded.set(PAGE_ADDRESS_HEADER, page);
  else forwarded.delete(PAGE_ADDRESS_HEADER);
  forwarded.delete(PEER_ADDRESS_HEADER);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}

/** proxy.ts as vercel-build writes it (Next.js reads `config` from the file itself, so it is literal there). */
export const SERVERLESS_PROXY_FILE = `// Written by \`npm run vercel-build\` (scripts/vercel-build.ts); not used by \`npm start\`.
import { serverlessProxy } from "./server/http/serverless-proxy";

export const proxy = serverlessProxy;

// Everything but the framework's own static files.
export const config = { matcher: "/((?!_next/static|_next/image).*)" };
`;
