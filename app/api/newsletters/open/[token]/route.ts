// GET /api/newsletters/open/{token} – a delivered mail's open pixel: counts the first open, answers a 1×1 GIF
// (HEAD, which Next.js answers with GET, answers the same and counts nothing)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { apiRoute, routes } from "@/server/http/route";
import { newsletterTokenKey } from "@/server/newsletters/tokens";
import { recordOpen } from "@/server/newsletters/tracking";
import { TRACKING_LIMITS, TRANSPARENT_GIF } from "@/server/newsletters/tracking-http";

export const dynamic = "force-dynamic";

// Any text: a token that does not hold still gets the pixel (a mail never shows an error image).
const ZParams = z.object({ token: z.string() });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZParams,
      produces: "any",
      rateLimit: TRACKING_LIMITS.open,
      summary:
        "A newsletter mail's open pixel (image/gif, 1×1, transparent, not cached). With a delivery token of a newsletter that tracks opens, records the delivery's first open (later ones change nothing). Any other token, and any HEAD, gets the same GIF and changes nothing. Opens are approximate: Apple Mail Privacy Protection and image proxies fetch the pixel without the reader opening the mail.",
    },
    async ({ db, req, params }) => {
      if (req.method !== "HEAD") {
        await recordOpen(db, { key: newsletterTokenKey(getEnv()), token: params.token, now: new Date() });
      }
      return new Response(TRANSPARENT_GIF, {
        headers: {
          "Content-Type": "image/gif",
          "Content-Length": String(TRANSPARENT_GIF.byteLength),
          "Cache-Control": "no-store, no-cache, must-revalidate, max-age=0",
          Pragma: "no-cache",
          Expires: "0",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  ),
});
