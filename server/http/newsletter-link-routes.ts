/**
 * The POSTs of the newsletter token routes (confirm, unsubscribe), made by `newsletterLinkPost`,
 * and what they answer once the token's action is done:
 * a browser form (Accept: text/html) gets 303 to the page of that link, anything else
 * 200 {newsletter, status}; never cached, never sending the token on as a referrer.
 */
import type { z } from "zod";

import { ZNewsletterTokenParams } from "../newsletters/subscriptions.schema";
import type { RouteRateLimit } from "./rate-limit-rules";
import { json } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler } from "./route";

const NEWSLETTER_LINK_NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** 303 to `location` (a path on the request's origin). */
export function newsletterLinkRedirect(location: string): Response {
  return new Response(null, { status: 303, headers: { ...NEWSLETTER_LINK_NO_STORE, Location: location } });
}

/** The answer to a confirm or unsubscribe POST: the page for a browser form, the JSON otherwise. */
function newsletterLinkAnswer(
  req: Request,
  done: { newsletterName: string; status: string },
  pagePath: string,
): Response {
  if ((req.headers.get("accept") ?? "").includes("text/html")) return newsletterLinkRedirect(pagePath);
  return json({ newsletter: done.newsletterName, status: done.status }, { headers: NEWSLETTER_LINK_NO_STORE });
}

/**
 * POST /api/newsletters/<link>/<token>: public (the token is the permission), the body read by
 * `act` if at all; `act` does the token's action and names the page a browser form goes to.
 */
export function newsletterLinkPost(
  options: { rateLimit: RouteRateLimit; summary: string },
  act: (
    ctx: HandlerContext<"public", z.ZodType, z.ZodType, typeof ZNewsletterTokenParams>,
  ) => Promise<{ done: { newsletterName: string; status: string }; page: string }>,
): RouteHandler {
  return apiRoute(
    { auth: "public", params: ZNewsletterTokenParams, rawBody: true, produces: "any", ...options },
    async (ctx) => {
      const { done, page } = await act(ctx);
      return newsletterLinkAnswer(ctx.req, done, page);
    },
  );
}
