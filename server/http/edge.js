/**
 * What the HTTP server in front of Next.js (scripts/serve.mjs) decides for every request before the
 * framework sees it, because the framework fails on these itself (a 500 or an HTML page), and what
 * every request gets: its id. Plain JavaScript, so that serve.mjs (run by Node as it is), the
 * Next.js proxy a Vercel build installs (./serverless-proxy.ts) and the TypeScript routes share it.
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

/** The header a dashboard page reads the address it was opened at from (see `pageAddress`). */
export const PAGE_ADDRESS_HEADER = "x-masthead-page";

/**
 * For a dashboard page (/admin…), the address it was opened at, path and query, without Next.js's
 * own `_rsc` marker: signing in comes back to it (server/auth/next-auth.ts). Undefined for any
 * other path, so the header never reaches a route from a client.
 * @param {string} rawUrl the request target as sent (path and query)
 * @returns {string | undefined}
 */
export function pageAddress(rawUrl) {
  if (rawUrl !== "/admin" && !rawUrl.startsWith("/admin/") && !rawUrl.startsWith("/admin?")) return undefined;
  const url = new URL(rawUrl, "http://masthead.invalid");
  url.searchParams.delete("_rsc");
  return url.pathname + url.search;
}

/**
 * A request target in absolute-form (`GET http://host/path?q HTTP/1.1`, which a server must accept:
 * RFC 9112 §3.2.2) as the path and query it names and the host that replaces the Host header;
 * undefined for any other target (origin-form, "/…", is used as it is; anything else is refused).
 * @param {string} rawUrl the request target as sent
 * @returns {{ path: string; host: string } | undefined}
 */
export function absoluteFormTarget(rawUrl) {
  if (!/^https?:\/\//i.test(rawUrl) || !URL.canParse(rawUrl)) return undefined;
  const url = new URL(rawUrl);
  return { path: url.pathname + url.search, host: url.host };
}

/**
 * Why a request is refused before routing, or null:
 * - a method no route serves (TRACE, PROPFIND…): 405 with Allow;
 * - a target that is not a path ("*", or absolute-form not rewritten first: see absoluteFormTarget): 400;
 * - with `sent`: more than one Host header, or none in HTTP/1.1 (RFC 9112 §3.2): 400;
 * - a path whose percent-encoding does not decode (/api/v1/stories/%E0%A4%A, /images/%ED%A0%80): 400.
 * @param {string} method
 * @param {string} rawUrl the request target as sent (path and query)
 * @param {{ hostHeaders: number; httpVersion: string }} [sent] how many Host headers came, and the HTTP version
 * @returns {{ status: number; code: string; message: string; details?: { field: string; issue: string }[]; headers?: Record<string, string> } | null}
 */
export function edgeRefusal(method, rawUrl, sent) {
  if (!SERVED_METHODS.includes(method.toUpperCase())) {
    return {
      status: 405,
      code: "METHOD_NOT_ALLOWED",
      message: `${method} is not a method this server serves.`,
      headers: { Allow: SERVED_METHODS.join(", ") },
    };
  }
  if (!rawUrl.startsWith("/")) {
    return {
      status: 400,
      code: "BAD_REQUEST",
      message: "The request target is not a path.",
      details: [{ field: "path", issue: "is not a path (origin-form, such as /api/v1/stories)" }],
    };
  }
  if (sent && (sent.hostHeaders > 1 || (sent.hostHeaders === 0 && sent.httpVersion !== "1.0"))) {
    return {
      status: 400,
      code: "BAD_REQUEST",
      message: "Send one Host header.",
      details: [{ field: "headers.host", issue: sent.hostHeaders > 1 ? "is sent more than once" : "is missing" }],
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
