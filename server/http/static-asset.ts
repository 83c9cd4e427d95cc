/**
 * A text asset built into the app (the AccessType SDK script and its .d.ts), answered with a
 * strong ETag (304 to a matching If-None-Match) and a short public cache: a new deploy reaches
 * readers within minutes, and revalidation costs a 304.
 */
import { createHash } from "node:crypto";

import { z } from "zod";

import { ACCESSTYPE_JS } from "@/sdk/accesstype/bundle.generated";
import { widgetAsset, type WidgetAsset } from "@/server/widgets/frame-page";

import { apiRoute } from "./route";

const etags = new Map<string, string>();

function etagOf(body: string): string {
  let etag = etags.get(body);
  if (!etag) {
    etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    etags.set(body, etag);
  }
  return etag;
}

export function staticAssetResponse(req: Request, body: string, contentType: string): Response {
  const etag = etagOf(body);
  const headers = {
    "Content-Type": contentType,
    "Cache-Control": "public, max-age=300, stale-while-revalidate=86400",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    // A script may be fetched by any page that includes it (and the .d.ts by editors and tools).
    "Access-Control-Allow-Origin": "*",
  };
  const match = req.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))
    return new Response(null, { status: 304, headers });
  return new Response(req.method === "HEAD" ? null : body, { status: 200, headers });
}

/** GET of a widget script or stylesheet (server/widgets): `?v=<its hash>` caches it for good. */
export function widgetAssetRoute(asset: WidgetAsset, summary: string) {
  return apiRoute(
    { auth: "public", produces: "any", query: z.object({ v: z.string().max(64).optional() }), summary },
    async ({ query }) => widgetAsset(asset, query.v),
  );
}

/** GET of the AccessType browser SDK (the same bytes at each of its paths). */
export function accessTypeSdkRoute(summary: string) {
  return apiRoute({ auth: "public", produces: "any", summary }, async ({ req }) =>
    staticAssetResponse(req, ACCESSTYPE_JS, "text/javascript; charset=utf-8"),
  );
}
