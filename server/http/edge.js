/**
 * What the HTTP server in front of Next.js (scripts/serve.mjs) decides for every request before the
 * framework sees it, because the framework fails on these itself (a 500 or an HTML page), and what
 * every request gets: its id. Plain JavaScript, so that serve.mjs (run by Node as it is) and the
 * TypeScript routes share it.
 *
 * This is done in node:http rather than in a Next.js proxy (middleware): a proxy runs on every
 * request and cost the read API about a third of its throughput (npm run bench, same run).
 */

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
  const path = rawUrl.split("?")[0] ?? "";
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
 * Bodies the response cache keeps compressed (server/http/content-cache.ts) are sent as they are.
 * Next.js drops `Content-Encoding` from a route handler's response (and would gzip the body again),
 * so the route names the encoding in this header instead, and `passEncodedBodies` (installed by
 * serve.mjs on each response, before Next.js's own compression looks at it) makes it the
 * `Content-Encoding`: that compression leaves an encoded body alone. Routes only do this when
 * `passesEncodedBodies()` says this server is in front (not in tests, not on Vercel).
 */
export const ENCODED_HEADER = "x-masthead-content-encoding";

const globalForEdge = /** @type {{ mastheadPassesEncodedBodies?: boolean }} */ (globalThis);

/** Is serve.mjs in front of this process, passing encoded bodies on? */
export function passesEncodedBodies() {
  return globalForEdge.mastheadPassesEncodedBodies === true;
}

/**
 * Say so (serve.mjs, at start; tests, to try it). Process-wide: Next.js's bundles share globalThis.
 * @param {boolean} on
 */
export function setPassesEncodedBodies(on) {
  globalForEdge.mastheadPassesEncodedBodies = on;
}

/**
 * @param {import("node:http").ServerResponse} res
 */
export function passEncodedBodies(res) {
  const set = res.setHeader.bind(res);
  const append = res.appendHeader.bind(res);
  /** @param {string} name */
  const encoded = (name) => name.toLowerCase() === ENCODED_HEADER;
  res.setHeader = (name, value) => (encoded(name) ? set("Content-Encoding", value) : set(name, value));
  res.appendHeader = (name, value) => (encoded(name) ? set("Content-Encoding", value) : append(name, value));
}
