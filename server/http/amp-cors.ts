/**
 * CORS as AMP asks it of the endpoints its runtime calls (amp-access, amp-subscriptions: the
 * authorization and pingback URLs), on top of the ordinary CORS of ./cors.ts:
 *
 * - AMP sends `__amp_source_origin` (the origin of the AMP document, i.e. the publisher's site)
 *   as a query parameter. It must be one of the publication's own origins, and the answer names
 *   it back in `AMP-Access-Control-Allow-Source-Origin` (exposed to the runtime).
 * - The request's `Origin` is the AMP cache serving the page (`<publisher-host with - → -- and
 *   . → ->.cdn.ampproject.org`, or another *.ampproject.org, *.ampproject.net, *.bing-amp.com,
 *   *.amp.cloudflare.com) or the publisher's own origin; it is reflected, with credentials
 *   allowed (AMP sends the reader's cookies).
 * - Without `Origin`, AMP marks a same-origin request with `AMP-Same-Origin: true`.
 *
 * The publication's origins come from Settings (the site URL, the account's domain and the
 * publication's domains: Publisher.publicationHosts), https (and the site URL's own scheme).
 * Anything else is 403.
 */
import { AppError } from "../errors";
import type { Publisher } from "../publishing/publisher";

const AMP_CACHE_HOST = /\.(ampproject\.org|ampproject\.net|bing-amp\.com|amp\.cloudflare\.com)$/i;

function originOf(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The publication's own origins. */
function publicationOrigins(publisher: Pick<Publisher, "publicationHosts" | "siteUrl">): Set<string> {
  const origins = new Set(publisher.publicationHosts.map((host) => `https://${host}`));
  const site = originOf(publisher.siteUrl);
  if (site) origins.add(site.origin);
  return origins;
}

function isAmpOrigin(origin: URL): boolean {
  return origin.protocol === "https:" && AMP_CACHE_HOST.test(origin.hostname);
}

/**
 * The headers to add for an AMP request, or {} for a request that is not AMP's (no
 * `__amp_source_origin`, no `AMP-Same-Origin`): the ordinary CORS then applies. FORBIDDEN when
 * the source origin or the Origin is not allowed.
 */
export function ampCorsHeaders(
  req: Request,
  sourceOrigin: string | undefined,
  publisher: Pick<Publisher, "publicationHosts" | "siteUrl">,
): Record<string, string> {
  const sameOrigin = req.headers.get("amp-same-origin") === "true";
  if (sourceOrigin === undefined && !sameOrigin) return {};
  const own = publicationOrigins(publisher);
  const headers: Record<string, string> = {};
  if (sourceOrigin !== undefined) {
    const source = originOf(sourceOrigin);
    if (!source || source.origin !== sourceOrigin.replace(/\/+$/, "") || !own.has(source.origin)) {
      throw new AppError("FORBIDDEN", "__amp_source_origin is not one of the publication's origins.");
    }
    headers["AMP-Access-Control-Allow-Source-Origin"] = source.origin;
    headers["Access-Control-Expose-Headers"] = "AMP-Access-Control-Allow-Source-Origin";
  }
  const originHeader = req.headers.get("origin");
  if (originHeader) {
    const origin = originOf(originHeader);
    if (!origin || (!own.has(origin.origin) && !isAmpOrigin(origin))) {
      throw new AppError("FORBIDDEN", "This origin may not call the AMP paywall endpoints.");
    }
    headers["Access-Control-Allow-Origin"] = origin.origin;
    headers["Access-Control-Allow-Credentials"] = "true";
    headers.Vary = "Origin";
  } else if (!sameOrigin) {
    // No Origin and no AMP-Same-Origin: not a browser's AMP request; nothing to add.
  }
  return headers;
}
