/**
 * A real HTTP server over the app's content route handlers, for tests that run real clients
 * (@quintype/backend…) against Masthead without building Next.js: node:http on 127.0.0.1:0, a
 * table of path patterns → route module, IncomingMessage → web Request → handler → response.
 *
 * Add a route by adding a line to CONTENT_ROUTES: a regex over the path whose named groups are
 * the route's dynamic params (decoded like Next.js does), and the route module's exports.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import * as advancedSearch from "@/app/api/v1/advanced-search/route";
import * as ampStory from "@/app/api/v1/amp/story/route";
import * as breakingNews from "@/app/api/v1/breaking-news/route";
import * as bulkRequestKey from "@/app/api/v1/bulk-request/[key]/route";
import * as bulkRequest from "@/app/api/v1/bulk-request/route";
import * as bulk from "@/app/api/v1/bulk/route";
import * as collection from "@/app/api/v1/collections/[slug]/route";
import * as config from "@/app/api/v1/config/route";
import * as search from "@/app/api/v1/search/route";
import * as storiesBySlug from "@/app/api/v1/stories-by-slug/route";
import * as storyAttributes from "@/app/api/v1/stories/[storyId]/attributes/route";
import * as relatedStories from "@/app/api/v1/stories/[storyId]/related-stories/route";
import * as story from "@/app/api/v1/stories/[storyId]/route";
import * as stories from "@/app/api/v1/stories/route";
import * as storyByExternalId from "@/app/api/v1/story-by-external-id/[externalId]/route";

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler>>;
export type ContentRoute = { pattern: RegExp; module: RouteModule };

/** Path → route module. More specific patterns first. */
export const CONTENT_ROUTES: ContentRoute[] = [
  { pattern: /^\/api\/v1\/config$/, module: config },
  { pattern: /^\/api\/v1\/stories$/, module: stories },
  { pattern: /^\/api\/v1\/stories-by-slug$/, module: storiesBySlug },
  { pattern: /^\/api\/v1\/stories\/(?<storyId>[^/]+)\/related-stories$/, module: relatedStories },
  { pattern: /^\/api\/v1\/stories\/(?<storyId>[^/]+)\/attributes$/, module: storyAttributes },
  { pattern: /^\/api\/v1\/stories\/(?<storyId>[^/]+)$/, module: story },
  { pattern: /^\/api\/v1\/story-by-external-id\/(?<externalId>[^/]+)$/, module: storyByExternalId },
  { pattern: /^\/api\/v1\/search$/, module: search },
  { pattern: /^\/api\/v1\/advanced-search$/, module: advancedSearch },
  { pattern: /^\/api\/v1\/bulk$/, module: bulk },
  { pattern: /^\/api\/v1\/bulk-request$/, module: bulkRequest },
  { pattern: /^\/api\/v1\/bulk-request\/(?<key>[^/]+)$/, module: bulkRequestKey },
  { pattern: /^\/api\/v1\/collections\/(?<slug>[^/]+)$/, module: collection },
  { pattern: /^\/api\/v1\/breaking-news$/, module: breakingNews },
  { pattern: /^\/api\/v1\/amp\/story$/, module: ampStory },
];

export type ContentServer = {
  baseUrl: string;
  server: Server;
  requests: { method: string; path: string; status: number }[];
  close: () => Promise<void>;
};

/** Listen on 127.0.0.1 on a free port; every request is logged in `requests` (method, path, status). */
export async function startContentServer(routes: ContentRoute[] = CONTENT_ROUTES): Promise<ContentServer> {
  const requests: ContentServer["requests"] = [];
  const server = createServer((incoming, outgoing) => {
    dispatch(routes, incoming, outgoing)
      .then((status) => requests.push({ method: incoming.method ?? "GET", path: incoming.url ?? "/", status }))
      .catch((error: unknown) => {
        outgoing.statusCode = 500;
        outgoing.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

async function dispatch(routes: ContentRoute[], incoming: IncomingMessage, outgoing: ServerResponse): Promise<number> {
  const host = incoming.headers.host ?? "127.0.0.1";
  const url = new URL(incoming.url ?? "/", `http://${host}`);
  const method = (incoming.method ?? "GET").toUpperCase();
  let response: Response | undefined;
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (!match) continue;
    const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    // Like Next.js: HEAD is served by GET (the wrapper drops the body).
    const handler = route.module[(method === "HEAD" ? "GET" : method) as keyof RouteModule];
    if (!handler) break;
    response = await handler(await toRequest(incoming, url, method), { params: Promise.resolve(params) });
    break;
  }
  response ??= Response.json(
    { error: { code: "NOT_FOUND", message: "No such route in the test server." } },
    { status: 404 },
  );
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => outgoing.setHeader(name, value));
  outgoing.end(method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
  return response.status;
}

async function toRequest(incoming: IncomingMessage, url: URL, method: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  return new Request(url, { method, headers, body: body && body.length > 0 ? new Uint8Array(body) : undefined });
}
