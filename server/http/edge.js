/**
 * What the HTTP server in front of Next.js (scripts/serve.mjs) decides for every request before the
 * framework sees it, because the framework fails on these itself (a 500 or an HTML page), and what
 * every request gets: its id. Plain JavaScript, so that serve.mjs (run by Node as it is) and the
 * TypeScript routes share it.
 *
 * This is done in node:http rather than in a Next.js proxy (middleware): a proxy runs on every
 * request and cost the read API about a third of its throughput (npm run bench, same run).
 */
import { timingSafeEqual } from "node:crypto";

/** The methods Masthead serves; anything else is a JSON 405 with this list as Allow. */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/**
 * The request id a client sent, when it is a sane one (8 to 100 of A-Z a-z 0-9 . _ : -): kept, so
 * that a proxy in front or a test can follow its request into the log; otherwise undefined.
 * @param {string | null | undefined | string[]} header
 * @returns {string | undefined}
 */
export function requestIdFrom(header) {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : undefined;
}

/**
 * Why a request is refused before routing, or null:
 * - a method no route serves (TRACE, PROPFIND…): 405 with Allow;
 * - a path whose percent-encoding does not decode (/api/v1/stories/%E0%A4%A, /images/%ED%A0%80): 400.
 * @param {string} method
 * @param {string} rawUrl the request target as sent (path and query)
 * @returns {{ status: number; code: string; message: string; details?: { field: string; issue: string }[]; headers?: Record<string, string> } | null}
 */
export function edgeRefusal(method, rawUrl) {
  if (!SERVED_METHODS.includes(method.toUpperCase())) {
    return {
      status: 405,
      code: "METHOD_NOT_ALLOWED",
      message: `${method} is not a method this server serves.`,
      headers: { Allow: SERVED_METHODS.join(", ") },
    };
  }
  const query = rawUrl.indexOf("?");
  const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
  // Nearly every path has nothing percent-encoded: nothing to decode (and a JWT's long query is
  // not scanned twice).
  if (!path.includes("%")) return null;
  for (const segment of path.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return {
        status: 400,
        code: "BAD_REQUEST",
        message: "The path is not valid: a percent-encoded sequence does not decode.",
        details: [{ field: "path", issue: "malformed percent-encoding" }],
      };
    }
  }
  return null;
}

/**
 * What a route knows about its body that Next.js will not pass on, named in headers of its own that
 * `passBodyHeaders` (installed by serve.mjs on each response, before Next.js's own compression looks
 * at it) makes the real ones. Routes only name them when `passesBodyHeaders()` says this server is
 * in front (not in tests, not on Vercel).
 * - ENCODED_HEADER: bodies the response cache keeps compressed (server/http/content-cache.ts) are
 *   sent as they are. Next.js drops `Content-Encoding` from a route handler's response (and would
 *   gzip the body again); as `Content-Encoding`, that compression leaves an encoded body alone.
 * - LENGTH_HEADER: the body's exact length in bytes. Next.js drops `Content-Length` too, and then
 *   gzips every answer, however small, in chunks: about 0.2 ms of CPU for a 60-byte access grant
 *   that gzip makes longer (a CPU profile under `npm run bench`). As `Content-Length`, a body under
 *   that compression's threshold (1 kB) is sent as it is, framed by its length; a longer one is still
 *   compressed (the compression then drops the length).
 */
export const ENCODED_HEADER = "x-masthead-content-encoding";
export const LENGTH_HEADER = "x-masthead-content-length";

const globalForEdge = /** @type {{ mastheadPassesBodyHeaders?: boolean }} */ (globalThis);

/** Is serve.mjs in front of this process, passing these headers on? */
export function passesBodyHeaders() {
  return globalForEdge.mastheadPassesBodyHeaders === true;
}

/**
 * Say so (serve.mjs, at start; tests, to try it). Process-wide: Next.js's bundles share globalThis.
 * @param {boolean} on
 */
export function setPassesBodyHeaders(on) {
  globalForEdge.mastheadPassesBodyHeaders = on;
}

/** @type {Record<string, string>} */
const PASSED = { [ENCODED_HEADER]: "Content-Encoding", [LENGTH_HEADER]: "Content-Length" };

/**
 * @param {import("node:http").ServerResponse} res
 */
export function passBodyHeaders(res) {
  const set = res.setHeader.bind(res);
  const append = res.appendHeader.bind(res);
  /** @param {string} name */
  const passed = (name) => PASSED[name.toLowerCase()];
  res.setHeader = (name, value) => set(passed(name) ?? name, value);
  res.appendHeader = (name, value) => {
    const real = passed(name);
    return real ? set(real, value) : append(name, value);
  };
}

/**
 * The hottest dynamic paths (ROUTED_PATHS: the access checks and pingbacks, which every page view
 * asks; a page's comments, read and posted; the comment counts of a front page) are routed past
 * Next.js's router, with their query:
 * - serve.mjs hands Next.js one static route, ROUTED_PATH, and keeps the path as sent, the route
 *   file's template, its parameters (decoded, as Next.js hands them over) and the query in this
 *   process while the request is in flight, behind a short ticket in a request header;
 * - ROUTED_PATH answers with the handlers of the path's own route file (app/api/routed/route.ts),
 *   and apiRoute reads the path, parameters and query from the ticket (server/http/route.ts
 *   `requestTarget`; every route on these paths is an apiRoute). So validation, authentication,
 *   CORS, caching and every answer are the route's own.
 *
 * Why: a dynamic path costs Next.js more than a static one before the handler runs. Its route is
 * found by trying each dynamic route's pattern in turn, and the app route's preparation rebuilds
 * the route's matchers (getServerUtils, with a structuredClone) and matches, normalises and
 * interpolates its parameters, every request. And Next.js parses the query string about six times
 * (routing, rewrites, the app route module), and on a dynamic path copies, normalises and
 * interpolates it too:
 * - for the comment counts of a front page (100 page ids, about 7 kB of percent-encoded base64)
 *   that was 0.4 ms of a 2 ms request (a CPU profile under `npm run bench`);
 * - for an access check (`?key=…&readerId=…`, two parameters) it was 0.075 ms of the app route's
 *   preparation, 0.13 ms against 0.05 for the same dynamic path without a query: 12 % of an empty
 *   route's throughput (a CPU profile, 2026-11-25).
 * The query is not a header's value: Next.js copies every request header into several Headers
 * objects on the way to the route, which for 8 kB cost about 0.03 ms a request (a CPU profile).
 *
 * The ticket is only believed with this process's nonce, made at random when serve.mjs starts
 * (and any such header a client sends is dropped first), and only while serve.mjs keeps it (until
 * the response closes: releaseRouted): a client cannot make a route read a path or a query
 * other than its URL's, which a cache in front keys by, and ROUTED_PATH answers 404 without one.
 * Left to Next.js as sent: a trailing slash (Next.js redirects it, 308, with its query), any other
 * path, an encoding that does not decode, a query with bytes outside printable ASCII. Without
 * serve.mjs in front (tests, Vercel) nothing is routed and routes read the URL as it is.
 */
export const ROUTED_HEADER = "x-masthead-routed";
/** The static route that answers ROUTED_PATHS for serve.mjs (app/api/routed/route.ts). */
export const ROUTED_PATH = "/api/routed";
/**
 * The dynamic paths answered through ROUTED_PATH, with or without a query: the route file whose
 * handlers answer (by its template, as app/api/routed/route.ts lists them) and its parameters.
 */
const ROUTED_PATHS = [
  {
    path: /^\/api\/access\/v1\/stories\/([^/]+)\/(access|amp-access|pingback|amp-pingback)$/,
    /** @param {RegExpExecArray} match */
    route: (match) => ({
      route: `/api/access/v1/stories/[storyId]/${match[2]}`,
      params: { storyId: match[1] ?? "" },
    }),
  },
  // A page's comments (the widget's list, a reader's post) and the comment counts of a front page.
  {
    path: /^\/api\/v1\/accounts\/([^/]+)\/pages\/([^/]+)\/comments\.json$/,
    /** @param {RegExpExecArray} match */
    route: (match) => ({
      route: "/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json",
      params: { account_id: match[1] ?? "", encoded_url: match[2] ?? "" },
    }),
  },
  {
    path: /^\/api\/v1\/accounts\/([^/]+)\/pages$/,
    /** @param {RegExpExecArray} match */
    route: (match) => ({ route: "/api/v1/accounts/[account_id]/pages", params: { account_id: match[1] ?? "" } }),
  },
];
/**
 * Only a query of printable ASCII is routed (as when the header held the query itself): a query
 * with other bytes stays where it is, read by the route as Next.js hands it over.
 */
const ROUTABLE_QUERY = /^[\x21-\x7e]*$/;

/**
 * What a ticket holds: the path as sent, its query, the route file's template and its parameters
 * (decoded, as Next.js hands them over).
 * @typedef {{ query: string; path: string; route: string; params: Record<string, string> }} Routed
 */

/** Shared by serve.mjs and the routes' bundle, which load this file as two modules. */
const globalForRouted =
  /** @type {{ mastheadRoutedNonce?: string; mastheadRoutedRequests?: Map<string, Routed>; mastheadRoutedSeq?: number }} */ (
    globalThis
  );

/**
 * The path's route through ROUTED_PATH, or null (a segment whose encoding does not decode is left
 * to Next.js, which serve.mjs refuses before this is asked).
 * @param {string} path
 * @returns {{ route: string; params: Record<string, string> } | null}
 */
function routedTarget(path) {
  for (const routed of ROUTED_PATHS) {
    const match = routed.path.exec(path);
    if (!match) continue;
    const target = routed.route(match);
    try {
      for (const name of Object.keys(target.params))
        target.params[name] = decodeURIComponent(target.params[name] ?? "");
    } catch {
      return null;
    }
    return target;
  }
  return null;
}

/**
 * The request target Next.js should route (ROUTED_PATH), and the header whose ticket holds the
 * path, its parameters and its query, or null to leave the request as it is (serve.mjs; the nonce
 * is made on the first call).
 * @param {string} rawUrl the request target as sent (path and query)
 * @returns {{ url: string; header: string } | null}
 */
export function routeRequest(rawUrl) {
  const mark = rawUrl.indexOf("?");
  const path = mark < 0 ? rawUrl : rawUrl.slice(0, mark);
  const query = mark < 0 ? "" : rawUrl.slice(mark + 1);
  const routed = routedTarget(path);
  if (!routed || !ROUTABLE_QUERY.test(query)) return null;
  globalForRouted.mastheadRoutedNonce ??= crypto.randomUUID();
  const ticket = String((globalForRouted.mastheadRoutedSeq = (globalForRouted.mastheadRoutedSeq ?? 0) + 1));
  (globalForRouted.mastheadRoutedRequests ??= new Map()).set(ticket, {
    query,
    path,
    route: routed.route,
    params: routed.params,
  });
  return { url: ROUTED_PATH, header: `${globalForRouted.mastheadRoutedNonce} ${ticket}` };
}

/**
 * Forget what a routed request's header holds (serve.mjs, once the response closes).
 * @param {string} header
 */
export function releaseRouted(header) {
  globalForRouted.mastheadRoutedRequests?.delete(header.slice(header.indexOf(" ") + 1));
}

/**
 * What a request's routed header holds, or null when there is none, its nonce is not this
 * process's or nothing is kept under its ticket (then the header is ignored).
 * @param {string | null} header
 * @returns {Routed | null}
 */
export function routedRequest(header) {
  const nonce = globalForRouted.mastheadRoutedNonce;
  if (!header || !nonce) return null;
  const space = header.indexOf(" ");
  if (space < 0) return null;
  // Compared in constant time, as every secret is (the nonce is ASCII: a UUID).
  const given = Buffer.from(header.slice(0, space));
  const expected = Buffer.from(nonce);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return globalForRouted.mastheadRoutedRequests?.get(header.slice(space + 1)) ?? null;
}
