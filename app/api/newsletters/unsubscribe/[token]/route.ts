// POST /api/newsletters/unsubscribe/{token} – one-click unsubscribe (RFC 8058), without signing in
// GET /api/newsletters/unsubscribe/{token} – redirects to the page that asks (changes nothing)
import { newsletterLinkPost, newsletterLinkRedirect } from "@/server/http/newsletter-link-routes";
import { readBodyBytes } from "@/server/http/request-body";
import { apiRoute, routes } from "@/server/http/route";
import { unsubscribePageUrl } from "@/server/newsletters/links";
import { describeNewsletterLink, unsubscribeByToken } from "@/server/newsletters/subscription-links";
import { ZNewsletterTokenParams } from "@/server/newsletters/subscriptions.schema";

export const dynamic = "force-dynamic";

// Mail providers send one-click POSTs from a few addresses: a roomy limit (a token cannot be guessed anyway).
const LIMIT = { name: "newsletters.unsubscribe", limit: 300, windowSeconds: 60, by: "ip" } as const;
/** RFC 8058's body is one short field (form-encoded or multipart); anything this large is not one. */
const MAX_BODY_BYTES = 16_384;
/** The page that asks, on the origin the request came to (a relative Location: the browser resolves it). */
const pagePath = (token: string) => unsubscribePageUrl("", token);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZNewsletterTokenParams,
      produces: "any",
      rateLimit: LIMIT,
      summary:
        "A browser opening the List-Unsubscribe URL: 303 to the page /newsletters/unsubscribe/<token>, which names the newsletter and asks (its button POSTs here). Never unsubscribes. 400 for a malformed token, 404 for one not signed for its row's account.",
    },
    async ({ db, params }) => {
      await describeNewsletterLink(db, { token: params.token, purposes: ["unsubscribe", "delivery"] });
      return newsletterLinkRedirect(pagePath(params.token));
    },
  ),
  // RFC 8058: the body is List-Unsubscribe=One-Click, form-encoded or multipart; it only names the source.
  POST: newsletterLinkPost(
    {
      rateLimit: LIMIT,
      summary:
        'One-click unsubscribe (RFC 8058 List-Unsubscribe-Post), without cookies or signing in: the token\'s subscription becomes "unsubscribed" (source "one_click" with the body List-Unsubscribe=One-Click, else "link"); a delivery token also sets the delivery\'s unsubscribed_at → 200 {newsletter, status}. A browser form (Accept: text/html) gets 303 to the page. Again: the same. 400 for a malformed token, 404 for one not signed for its row\'s account, 413 for a body over 16 kB.',
    },
    async ({ db, req, params }) => {
      const bytes = await readBodyBytes(req, MAX_BODY_BYTES);
      const body = new TextDecoder().decode(bytes);
      const source = body.includes("List-Unsubscribe=One-Click") ? "one_click" : "link";
      const done = await unsubscribeByToken(db, { token: params.token, source, now: new Date() });
      return { done, page: pagePath(params.token) };
    },
  ),
});
