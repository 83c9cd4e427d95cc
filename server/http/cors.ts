/**
 * CORS for the APIs that browsers call (widgets, paywall, client API). Allowed origins come from
 * CORS_ALLOWED_ORIGINS: "*" or a comma-separated list. An allowed Origin is reflected (with
 * `Vary: Origin`); a disallowed one gets no CORS headers, so the browser blocks the response, and
 * its preflight gets 403. X-SUBAUTH is never allowed: server keys do not belong in browsers.
 *
 * Credentials (cookies) are allowed only for origins listed by name: a member logged in on the
 * publisher's site sends its session cookie from there. Under "*" any site may read the public
 * APIs, but never with a reader's cookies; it can still send X-QT-AUTH, and read it from a login.
 */
import { AppError } from "../errors";
import { requestIdFrom } from "./edge.js";
import { allowHeader, errorResponse } from "./errors";

const CORS_ALLOWED_HEADERS = ["Content-Type", "X-QT-AUTH", "X-Request-Id", "Authorization"];

export function isOriginAllowed(origin: string, allowed: string): boolean {
  if (allowed.trim() === "*") return true;
  return allowed
    .split(",")
    .map((o) => o.trim().replace(/\/+$/, ""))
    .filter(Boolean)
    .includes(origin.replace(/\/+$/, ""));
}

/** Headers to add to a response for `origin` (none when there is no Origin or it is not allowed). */
export function corsHeaders(origin: string | null, allowed: string): Record<string, string> {
  if (!origin || !isOriginAllowed(origin, allowed)) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    ...(allowed.trim() === "*" ? {} : { "Access-Control-Allow-Credentials": "true" }),
    Vary: "Origin",
    "Access-Control-Expose-Headers":
      "X-Request-Id, X-QT-AUTH, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
  };
}

/**
 * The answer to an OPTIONS request of a browser-facing path: with an Origin, a preflight (204, or a
 * JSON 403 for an origin not allowed); without one it is no preflight: 204 with `Allow`.
 */
export function preflightResponse(req: Request, allowed: string, methods: string[]): Response {
  const origin = req.headers.get("origin");
  if (!origin) return new Response(null, { status: 204, headers: { Allow: allowHeader(methods) } });
  if (!isOriginAllowed(origin, allowed)) {
    const requestId = requestIdFrom(req.headers.get("x-request-id")) ?? crypto.randomUUID();
    return errorResponse(new AppError("FORBIDDEN", "This origin may not call this API from a browser."), requestId);
  }
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin, allowed),
      "Access-Control-Allow-Methods": [...methods, "OPTIONS"].join(", "),
      "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS.join(", "),
      "Access-Control-Max-Age": "600",
    },
  });
}
