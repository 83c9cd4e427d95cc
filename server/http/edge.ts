/**
 * What the Next.js proxy (proxy.ts) decides before the framework routes a request, because the
 * framework fails on these itself before a route could answer (a 500 or an HTML page):
 * - under /api/, a method no route serves (TRACE, CONNECT, PROPFIND…): 405 with Allow;
 * - anywhere (API, /images/, dashboard pages, feeds), a path whose percent-encoding does not decode
 *   (/api/v1/stories/%E0%A4%A, /images/%ED%A0%80): 400.
 * Pure: the request's method and raw path in, an error to answer or nothing.
 */
import { AppError } from "../errors";

/** Every method some /api/ route serves (routes() answers 405 per route for the rest of these). */
export const API_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export function edgeRefusal(method: string, rawPath: string): AppError | null {
  if (rawPath.startsWith("/api/") && !(API_METHODS as readonly string[]).includes(method.toUpperCase())) {
    return new AppError("METHOD_NOT_ALLOWED", `${method} is not a method this API serves.`, {
      headers: { Allow: API_METHODS.join(", ") },
    });
  }
  for (const segment of rawPath.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return new AppError("BAD_REQUEST", "The path is not valid: a percent-encoded sequence does not decode.", {
        details: [{ field: "path", issue: "malformed percent-encoding" }],
      });
    }
  }
  return null;
}
