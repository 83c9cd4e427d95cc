// GET /api/newsletters/click/{token}?u=&h= – a redirected link of a delivered mail: counts the click, 302 to u
// (HEAD, which Next.js answers with GET, answers the same and counts nothing)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { apiRoute, routes } from "@/server/http/route";
import { newsletterTokenKey } from "@/server/newsletters/tokens";
import { MAX_CLICK_URL_LENGTH, recordClick, verifyClick } from "@/server/newsletters/tracking";
import { TRACKING_LIMITS } from "@/server/newsletters/tracking-http";

export const dynamic = "force-dynamic";

const ZParams = z.object({ token: z.string().max(200) });
const ZQuery = z.object({
  u: z.string().min(1).max(MAX_CLICK_URL_LENGTH),
  h: z.string().min(1).max(64),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZParams,
      query: ZQuery,
      produces: "any",
      rateLimit: TRACKING_LIMITS.click,
      summary:
        "A newsletter mail's redirected link: with the delivery's token and the MAC `h` binding the http(s) URL `u` to that delivery, records the click (the delivery's first click and every click's row) and answers 302 to `u`. 400 JSON, changing nothing, for a token or MAC that does not hold (another account's, a changed character) or a `u` that is not http(s): never a redirect elsewhere. HEAD (link scanners) answers the same and records nothing.",
    },
    async ({ db, req, params, query }) => {
      const link = { key: newsletterTokenKey(getEnv()), token: params.token, url: query.u, h: query.h };
      const { location } =
        req.method === "HEAD" ? await verifyClick(db, link) : await recordClick(db, { ...link, now: new Date() });
      return new Response(null, {
        status: 302,
        headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
      });
    },
  ),
});
