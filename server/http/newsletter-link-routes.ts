/**
 * What the newsletter token routes (confirm, unsubscribe) answer once the token's action is done:
 * a browser form (Accept: text/html) gets 303 to the page of that link, anything else
 * 200 {newsletter, status}; never cached, never sending the token on as a referrer.
 */
import { json } from "./respond";

const NEWSLETTER_LINK_NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** 303 to `location` (a path on the request's origin). */
export function newsletterLinkRedirect(location: string): Response {
  return new Response(null, { status: 303, headers: { ...NEWSLETTER_LINK_NO_STORE, Location: location } });
}

/** The answer to a confirm or unsubscribe POST: the page for a browser form, the JSON otherwise. */
export function newsletterLinkAnswer(
  req: Request,
  done: { newsletterName: string; status: string },
  pagePath: string,
): Response {
  if ((req.headers.get("accept") ?? "").includes("text/html")) return newsletterLinkRedirect(pagePath);
  return json({ newsletter: done.newsletterName, status: done.status }, { headers: NEWSLETTER_LINK_NO_STORE });
}
