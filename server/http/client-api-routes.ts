/**
 * The paywall's browser calls of the client API (docs/subscriptions.md): the offer for a reader,
 * the payment options, a coupon's check, and the demo paywall's test tools. Each is made here by
 * `clientRoute` and their route files pick one (`routes({ GET: CLIENT_API.offer })`), so they all
 * authenticate and answer alike: the account's client key in `key` (with the reader's JWT where
 * the endpoint is for a reader), browser-facing (CORS), a limit per minute, and one use case
 * whose result is the JSON answer, never cached.
 */
import { z } from "zod";

import { getEnv } from "../../env.js";
import { failDemoRenewal } from "../demo/failed-renewal";
import { mintDemoReaderJwt } from "../demo/reader-jwt";
import { ZValidateCouponBody } from "../subscriptions/checkout/checkout.schema";
import { validateCoupon } from "../subscriptions/checkout/preview";
import { ZOfferQuery } from "../subscriptions/offers/offers.schema";
import { offerForReader } from "../subscriptions/offers/reader-offer";
import { listPaymentOptions } from "../subscriptions/payments/gateways";
import { ZClientQuery } from "../subscriptions/subscribers/subscribers.schema";
import type { RouteRateLimit } from "./rate-limit-rules";
import { readerMember } from "./reader-subscription-routes";
import { json } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

/** The client-key schemes: no reader, a reader required, or one when the JWT is sent. */
type ClientScheme = "client" | "client+user" | "client+optionalUser";

/**
 * One browser call: `perMinute` is its rate limit (its name, how many, counted by what); `run`'s
 * result is the JSON answer, with `Cache-Control: no-store` (`private, no-store` where `private`).
 */
function clientRoute<T, A extends ClientScheme, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  options: Pick<RouteOptions<A, Q, B, z.ZodType>, "auth" | "query" | "body"> & {
    perMinute: Pick<RouteRateLimit, "name" | "limit" | "by">;
    private?: true;
    summary: string;
  },
  run: (ctx: HandlerContext<A, Q, B, z.ZodType> & { now: Date }) => Promise<T>,
): RouteHandler {
  const { perMinute, private: isPrivate, ...rest } = options;
  const headers = { "Cache-Control": isPrivate ? "private, no-store" : "no-store" };
  return apiRoute(
    { ...rest, cors: true, rateLimit: { ...perMinute, windowSeconds: 60 } },
    async (ctx: HandlerContext<A, Q, B, z.ZodType>) => json(await run({ ...ctx, now: new Date() }), { headers }),
  );
}

export const CLIENT_API = {
  offer: clientRoute(
    {
      auth: "client+optionalUser",
      query: ZOfferQuery,
      perMinute: { name: "offers.reader", limit: 120, by: "ip+key" },
      private: true,
      summary:
        "The paywall's offer for this reader: {offer: {id, headline, body, locale, dir, coupon_code, trial_days, plans: [{id, title, price_cents, price_currency, offer_price_cents, trial_days}]} | null, experiment: {id, arm, exposure_id} | null}. The reader: the JWT (accesstype_jwt, svc_jwt, masthead_jwt) and/or readerId; the page's context: locale, utm_medium and ref (newsletter: utm_medium email or newsletter, or ref=newsletter); the country from the operator's OFFER_COUNTRY_HEADER (default CF-IPCountry); the device from Sec-CH-UA-Mobile or the User-Agent. A running A/B test whose segment holds records the reader's exposure once. Checkout takes subscription.offer_id and subscription.exposure_id.",
    },
    ({ db, req, account, user, query, now }) =>
      offerForReader(db, {
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
        now,
      }),
  ),
  paymentOptions: clientRoute(
    {
      auth: "client",
      query: ZClientQuery,
      perMinute: { name: "payment_options.get", limit: 300, by: "ip+key" },
      summary:
        "{payment_options: {<provider>: {app_key, environment, payment_types, …}}}: the account's enabled payment gateways that readers may pay through (e.g. razorpay with payment_types razorpay and razorpay_recurring; stripe with stripe and stripe_recurring plus js_url, where the browser loads Stripe.js). The app key is the gateway's public key; no secret is ever included. The browser SDK's getPaymentOptions calls it.",
    },
    async ({ db, account }) => ({ payment_options: await listPaymentOptions(db, account.id) }),
  ),
  validateCoupon: clientRoute(
    {
      auth: "client",
      query: ZClientQuery,
      body: ZValidateCouponBody,
      perMinute: { name: "checkout.coupon_validate", limit: 60, by: "ip+key" },
      summary:
        "{subscription_plan_id, coupon_code, currency?} → {valid: true, coupon_code, discount_detail, price_cents, discounted_price_cents, price_currency, discounted_price}; 422 naming the reason (unknown, not yet valid, expired, used up, another plan, another currency). Public, enabled plans only. The per-subscriber limit is checked at preview.",
    },
    ({ db, account, body, now }) =>
      validateCoupon(db, {
        accountId: account.id,
        planId: body.subscription_plan_id,
        code: body.coupon_code,
        currency: body.currency,
        now,
      }),
  ),
  /** Test tools of the demo paywall (the demo account only, while DEMO_TOOLS is on; 404 otherwise). */
  demoReaderJwt: clientRoute(
    {
      auth: "client",
      body: z.object({ email: z.email().max(254) }),
      perMinute: { name: "demo.reader-jwt", limit: 30, by: "ip" },
      summary:
        "TEST TOOL of the demo paywall: {email} → {accesstype_jwt, expires_at, reader_id}, a one-hour reader JWT signed with the demo account's (public) shared key. Only for the demo account's key and only while DEMO_TOOLS is on; 404 otherwise.",
    },
    ({ db, account, body, now }) => mintDemoReaderJwt(db, { account, email: body.email, now }),
  ),
  demoFailedRenewal: clientRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      perMinute: { name: "demo.failed-renewal", limit: 10, by: "ip" },
      summary:
        "TEST TOOL of the demo paywall: the signed-in demo reader's renewing demo_test subscription fails its renewal now: its card becomes the expired test card, its period ends, the charge is declined and the plan's grace period starts; a renewing Stripe subscription's period ends now and Masthead awaits Stripe's word on the renewal → {subscription}. 422 without such a subscription. Only for the demo account's key and only while DEMO_TOOLS is on; 404 otherwise.",
    },
    async ({ db, account, user, now }) => {
      const member = await readerMember(db, account.id, user);
      const appUrl = getEnv().APP_URL;
      return { subscription: await failDemoRenewal(db, { account, memberId: member?.id ?? null, now, appUrl }) };
    },
  ),
};
