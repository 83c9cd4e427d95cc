// GET /api/access/v1/offer – the paywall offer for this reader (and its A/B test arm, recorded once)
import { getEnv } from "@/env.js";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZOfferQuery } from "@/server/subscriptions/offers/offers.schema";
import { offerForReader } from "@/server/subscriptions/offers/reader-offer";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+optionalUser",
      query: ZOfferQuery,
      cors: true,
      rateLimit: { name: "offers.reader", limit: 120, windowSeconds: 60, by: "ip+key" },
      summary:
        "The paywall's offer for this reader: {offer: {id, headline, body, locale, dir, coupon_code, trial_days, plans: [{id, title, price_cents, price_currency, offer_price_cents, trial_days}]} | null, experiment: {id, arm, exposure_id} | null}. The reader: the JWT (accesstype_jwt, svc_jwt, masthead_jwt) and/or readerId; the page's context: locale, utm_medium and ref (newsletter: utm_medium email or newsletter, or ref=newsletter); the country from the operator's OFFER_COUNTRY_HEADER (default CF-IPCountry); the device from Sec-CH-UA-Mobile or the User-Agent. A running A/B test whose segment holds records the reader's exposure once. Checkout takes subscription.offer_id and subscription.exposure_id.",
    },
    async ({ db, req, account, user, query }) =>
      json(
        await offerForReader(db, {
          accountId: account.id,
          user,
          readerId: query.readerId,
          locale: query.locale || null,
          utmMedium: query.utm_medium ?? null,
          ref: query.ref ?? null,
          headers: {
            country: req.headers.get(getEnv().OFFER_COUNTRY_HEADER),
            chUaMobile: req.headers.get("sec-ch-ua-mobile"),
            userAgent: req.headers.get("user-agent"),
          },
          now: new Date(),
        }),
        { headers: { "Cache-Control": "private, no-store" } },
      ),
  ),
});
