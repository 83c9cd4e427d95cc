/**
 * HTTP caching of public content responses (stories, collections, feeds):
 * - `ETag`: a hash of the exact body, so a client or CDN revalidates with `If-None-Match` and gets
 *   304 with no body when nothing changed;
 * - `Cache-Control`: browsers revalidate every time (max-age=0); shared caches keep the response
 *   CONTENT_CACHE_SECONDS and may serve it stale for a while when Masthead is down;
 * - `Cache-Tag` / `Surrogate-Key`: what the response contains (s/<story-id>, c/<collection-id>…),
 *   so a CDN in front can purge exactly the responses a change touches, and Masthead drops its own
 *   copy by the same keys (`cachedRead`, ../cache/response-cache.ts).
 */
import { createHash } from "node:crypto";

import { getEnv } from "../../env.js";
import { responseCache, type CachedResponse } from "../cache/response-cache";
import { toJsonText } from "../json-text";
import { recordCacheAnswer, type CacheOutcome } from "../metrics";
import { parseQueryString } from "./query-string";

type ContentResponseOptions = {
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

/** A built public answer: what the response cache keeps (../cache/response-cache.ts). */
function buildContentResponse(body: unknown, options: ContentResponseOptions = {}): CachedResponse {
  const contentType = options.contentType ?? "application/json";
  const text = typeof body === "string" ? body : toJsonText(body);
  const sMaxAge = options.sMaxAge ?? getEnv().CONTENT_CACHE_SECONDS;
  const headers: Record<string, string> = {
    "Cache-Control": `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${sMaxAge}, stale-if-error=86400`,
    Vary: "Accept-Encoding",
    ...options.headers,
  };
  const tags = options.tags ? [...new Set(options.tags)] : [];
  if (tags.length > 0) {
    const shown = tags.slice(0, 200).join(" ");
    headers["Cache-Tag"] = shown.replaceAll(" ", ",");
    headers["Surrogate-Key"] = shown;
  }
  const bytes = Buffer.from(text);
  return {
    body: bytes,
    contentType: contentType.includes("charset") ? contentType : `${contentType}; charset=utf-8`,
    etag: etagOf(bytes),
    tags,
    headers,
  };
}

/** The Response of a built answer: 304 when the client already holds this exact body. */
function respondWith(req: Request, built: CachedResponse, status = 200, extra: Record<string, string> = {}): Response {
  const headers = { ETag: built.etag, ...built.headers, ...extra };
  if ((req.method === "GET" || req.method === "HEAD") && matchesEtag(req.headers.get("if-none-match"), built.etag)) {
    return new Response(null, { status: 304, headers });
  }
  // Compressed, when the client accepts it, by Next.js (its `compress` option).
  return new Response(req.method === "HEAD" ? null : built.body, {
    status,
    headers: { "Content-Type": built.contentType, ...headers },
  });
}

/** A cacheable public response: 304 when the client already holds this exact body. */
export function contentResponse(req: Request, body: unknown, options: ContentResponseOptions = {}): Response {
  return respondWith(req, buildContentResponse(body, options), options.status ?? 200);
}

/** What a cached read's key is made of: the request's path and query (a URL, or just these two). */
type KeyUrl = Pick<URL, "pathname" | "search">;

/** What a cached read answers: the body and how to send and keep it. */
export type CacheableAnswer = { body: unknown } & ContentResponseOptions & {
    /**
     * Keep it in the response cache no later than this (an expiry the answer knows of). A time,
     * not a length: the build itself takes time, and the answer must not outlive the expiry by it.
     */
    cacheUntil?: Date;
  };

/**
 * A public read served through the response cache (../cache/response-cache.ts): the same
 * request of the same account is answered from memory until an event purges one of the answer's
 * keys. `build` runs on a miss. Not kept: answers other than 200, private ones (a Cache-Control
 * naming private or no-store), and answers with no purge key (nothing would ever drop them).
 * Never answered from memory: `bypass` requests (the caller's: a reader-specific read) and a
 * request saying `Cache-Control: no-cache` (or `Pragma: no-cache`), which is built afresh and
 * refreshes what is kept. Answers are kept per `accessClass` (a story's paid part is never served
 * from memory to a caller without access). An answer with `Vary` (other than Accept-Encoding) is kept per value of
 * those request headers. `X-Cache` says which: HIT, MISS or BYPASS.
 */
export async function cachedRead(
  req: Request,
  url: KeyUrl,
  account: number,
  build: () => Promise<CacheableAnswer>,
  options: CachedReadOptions = {},
): Promise<Response> {
  const cache = responseCache();
  // Each access class its own answers: a full story is never sent to a caller without access.
  const path = `${account} ${url.pathname}${keptSearch(url, options.ignoreParams)}${options.accessClass ? ` ${options.accessClass}` : ""}`;
  const key = path + variant(req, varyByPath.get(path));
  const fresh = options.bypass || asksForFresh(req);
  const send = async (built: CachedResponse, status: number, state: CacheOutcome) => {
    const sent = status === 200 && options.personalize ? await options.personalize(built) : built;
    recordCacheAnswer(state);
    const headers: Record<string, string> = { "X-Cache": state };
    if (options.cacheControl) headers["Cache-Control"] = options.cacheControl;
    return respondWith(req, sent, status, headers);
  };
  if (!fresh) {
    const hit = cache.get(key);
    if (hit) return send(hit, 200, "HIT");
    // The same answer being built for another request: wait for it rather than build it again
    // (a purged home page read by hundreds at once is built once), when it is one to keep and
    // this request gets the same variant of it.
    // (No await before this build is announced below, unless there is one to wait for.)
    const underWay = cache.buildUnderWay<Built>(key, account);
    const shared = underWay && (await underWay.catch(() => undefined));
    if (shared && shared.keep && variant(req, shared.vary) === shared.variant) return send(shared.built, 200, "HIT");
  }
  const generation = cache.generation();
  const building = (async (): Promise<Built> => {
    const { body, cacheUntil, ...answer } = await build();
    const ttlMs = cacheUntil ? cacheUntil.getTime() - Date.now() : undefined;
    const built = buildContentResponse(body, answer);
    const status = answer.status ?? 200;
    const keep =
      !options.bypass &&
      status === 200 &&
      (ttlMs === undefined || ttlMs > 0) &&
      built.tags.length > 0 &&
      !/\b(private|no-store)\b/i.test(built.headers["Cache-Control"] ?? "");
    // An answer that varies by a request header (Vary: Accept) is kept per value of it.
    const vary = (built.headers.Vary ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name && name !== "accept-encoding");
    const own = variant(req, vary);
    if (keep) {
      if (vary.length) {
        if (varyByPath.size >= 10_000) varyByPath.clear();
        varyByPath.set(path, vary);
      }
      cache.set(path + own, account, generation, built, { ttlMs });
    }
    return { built, status, keep, vary, variant: own };
  })();
  if (!options.bypass) cache.building(key, generation, building);
  const { built, status, keep } = await building;
  return send(built, status, options.bypass || !keep ? "BYPASS" : "MISS");
}

/** A build's outcome, as the requests waiting for it need it. */
type Built = { built: CachedResponse; status: number; keep: boolean; vary: string[]; variant: string };

type CachedReadOptions = {
  /** Built every time and never kept (a reader-specific read). */
  bypass?: boolean;
  /**
   * What the caller gets of closed stories ("full", "free_part": ../publishing/paid-part.ts): part
   * of the key, so an answer is only ever sent to callers of its own class.
   */
  accessClass?: string;
  /**
   * Query parameters that do not change the answer, left out of the key (a reader's `jwt`, when
   * `personalize` adds what is theirs).
   */
  ignoreParams?: readonly string[];
  /**
   * The Cache-Control sent instead of the answer's (which still decides whether it is kept): an
   * answer kept and purged here but never by browsers or CDNs, e.g. "no-store".
   */
  cacheControl?: string;
  /**
   * The response sent from the kept (or just built) 200 answer: the same public answer with the
   * requester's own fields laid over it (its ETag made again). What is kept stays public.
   */
  personalize?: (built: CachedResponse) => Promise<CachedResponse>;
};

/** A kept answer with another body (a reader's fields laid over it): the same headers, a new ETag. */
export function withBody(built: CachedResponse, body: string): CachedResponse {
  const bytes = Buffer.from(body);
  return { ...built, body: bytes, etag: etagOf(bytes) };
}

/** The query of the key: as sent, less `ignore`d parameters (exported for tests). */
export function keptSearch(url: KeyUrl, ignore: readonly string[] = []): string {
  // A query naming none of them as written is the key as it is, without parsing it (a front page's
  // comment counts send 8 kB of page ids). One that names them encoded (j%77t=) parses to a key
  // of its own: a miss, never a wrong answer.
  const raw = url.search;
  if (!ignore.some((name) => raw.includes(`${name}=`) || raw.endsWith(`&${name}`) || raw.endsWith(`?${name}`)))
    return raw;
  const search = parseQueryString(raw);
  if (!ignore.some((name) => search.has(name))) return raw;
  for (const name of ignore) search.delete(name);
  const query = search.toString();
  return query ? `?${query}` : "";
}

/** The request headers each path's answers vary by (their Vary header), learnt from their builds. */
const varyByPath = new Map<string, string[]>();

function variant(req: Request, vary: readonly string[] | undefined): string {
  return vary?.length ? vary.map((name) => `\n${name}: ${req.headers.get(name) ?? ""}`).join("") : "";
}

function asksForFresh(req: Request): boolean {
  const control = req.headers.get("cache-control");
  return (
    (control !== null && /\bno-cache\b/i.test(control)) ||
    (req.headers.get("pragma") ?? "").toLowerCase() === "no-cache"
  );
}
