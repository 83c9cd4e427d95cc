/**
 * HTTP caching of public content responses (stories, collections, feeds):
 * - `ETag`: a hash of the exact body, so a client or CDN revalidates with `If-None-Match` and gets
 *   304 with no body when nothing changed;
 * - `Cache-Control`: browsers revalidate every time (max-age=0); shared caches keep the response
 *   CONTENT_CACHE_SECONDS and may serve it stale for a while when Masthead is down;
 * - `Cache-Tag` / `Surrogate-Key`: what the response contains (s/<story-id>, c/<collection-id>…),
 *   so a CDN in front can purge exactly the responses a change touches.
 */
import { createHash } from "node:crypto";

import { getEnv } from "../../env.js";

export type ContentResponseOptions = {
  /** Content type; JSON by default. */
  contentType?: string;
  /** Purge keys of what the body contains, e.g. ["s/<uuid>", "c/12"]. */
  tags?: readonly string[];
  /** Seconds shared caches may keep it; default CONTENT_CACHE_SECONDS. */
  sMaxAge?: number;
  status?: number;
  headers?: Record<string, string>;
};

export function etagOf(body: string | Uint8Array): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Does an If-None-Match header list this ETag (weak comparison, as RFC 9110 asks for GETs)? */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value.replace(/^W\//, "") === bare;
  });
}

/** A cacheable public response: 304 when the client already holds this exact body. */
export function contentResponse(req: Request, body: unknown, options: ContentResponseOptions = {}): Response {
  const contentType = options.contentType ?? "application/json";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const etag = etagOf(text);
  const sMaxAge = options.sMaxAge ?? getEnv().CONTENT_CACHE_SECONDS;
  const headers: Record<string, string> = {
    ETag: etag,
    "Cache-Control": `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${sMaxAge}, stale-if-error=86400`,
    Vary: "Accept-Encoding",
    ...options.headers,
  };
  if (options.tags && options.tags.length > 0) {
    const tags = [...new Set(options.tags)].slice(0, 200).join(" ");
    headers["Cache-Tag"] = tags.replaceAll(" ", ",");
    headers["Surrogate-Key"] = tags;
  }
  if ((req.method === "GET" || req.method === "HEAD") && matchesEtag(req.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === "HEAD" ? null : text, {
    status: options.status ?? 200,
    headers: {
      "Content-Type": contentType.includes("charset") ? contentType : `${contentType}; charset=utf-8`,
      ...headers,
    },
  });
}
