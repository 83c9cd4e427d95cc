/**
 * Which requests may start a member session that travels in cookies (sign-in, sign-up, social
 * sign-in, the publisher-JWT and OAuth code exchanges). A cookie set on a request another site made
 * (login CSRF: a page elsewhere signs the reader in as someone else) is refused, before anything is
 * written:
 *
 * - with an `Origin`, it must be this host's own (the Host the request came to, or APP_URL) or an
 *   origin CORS_ALLOWED_ORIGINS names (a publisher's site; never by "*"); `Origin: null` is refused;
 * - without one, `Sec-Fetch-Site: cross-site` is refused, except a top-level GET navigation where
 *   the route allows it (`navigation`: the OAuth redirect back, which carries a single-use code
 *   this site issued);
 * - a request with neither header is no browser's (a publisher's back end, curl): it gets no
 *   ambient cookies from anyone and is served.
 */
import { getEnv } from "../../env.js";
import { AppError } from "../errors";
import { isOriginAllowed } from "./cors";

const CROSS_SITE_SESSION_MESSAGE =
  "A sign-in from another site is refused: sign in on this site, or from an origin the publisher allows.";

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether `origin` is this host's own: the Host the request came to (either scheme), or APP_URL. */
function isOwnOrigin(req: Request, origin: string): boolean {
  const parsed = originOf(origin);
  if (!parsed) return false;
  const host = req.headers.get("host") ?? new URL(req.url).host;
  const url = new URL(parsed);
  if ((url.protocol === "https:" || url.protocol === "http:") && url.host.toLowerCase() === host.toLowerCase())
    return true;
  const app = getEnv().APP_URL;
  return app ? originOf(app) === parsed : false;
}

/** Whether `origin` is named (not by "*") in CORS_ALLOWED_ORIGINS. */
function isNamedAllowedOrigin(origin: string): boolean {
  const allowed = getEnv().CORS_ALLOWED_ORIGINS;
  return allowed.trim() !== "*" && isOriginAllowed(origin, allowed);
}

/** Why this request may not start a cookie session (null: it may). */
export function crossSiteSessionProblem(req: Request, options: { navigation?: boolean } = {}): string | null {
  const origin = req.headers.get("origin");
  if (origin !== null) {
    if (origin !== "null" && (isOwnOrigin(req, origin) || isNamedAllowedOrigin(origin))) return null;
    return `the request came from ${origin === "null" ? "an opaque origin" : origin}`;
  }
  if (req.headers.get("sec-fetch-site")?.trim().toLowerCase() !== "cross-site") return null;
  const navigation =
    req.method === "GET" &&
    req.headers.get("sec-fetch-mode")?.toLowerCase() === "navigate" &&
    (req.headers.get("sec-fetch-dest")?.toLowerCase() ?? "document") === "document";
  if (options.navigation && navigation) return null;
  return "the browser says another site made the request";
}

/** Throws FORBIDDEN when the request may not start a cookie session (see the module header). */
export function assertSessionRequestSameSite(req: Request, options: { navigation?: boolean } = {}): void {
  const problem = crossSiteSessionProblem(req, options);
  if (problem) {
    throw new AppError("FORBIDDEN", CROSS_SITE_SESSION_MESSAGE, {
      details: [{ field: "origin", issue: problem }],
    });
  }
}
