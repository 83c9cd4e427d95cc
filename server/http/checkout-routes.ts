/**
 * Checkout's route handlers (docs/subscriptions.md "Checkout"), shared by the route files of the
 * server API, the client API and guest checkout: each binds HTTP to previewSubscription /
 * createSubscription (server/subscriptions/checkout/create.ts) with its own way of naming the buyer.
 */
import type { z } from "zod";

import type { CheckoutWho } from "../subscriptions/checkout/buyer";
import {
  requireAttemptToken,
  ZClientCheckoutBody,
  ZGuestCheckoutBody,
  ZServerCheckoutBody,
  type TCheckoutBody,
} from "../subscriptions/checkout/checkout.schema";
import { createSubscription } from "../subscriptions/checkout/create";
import { previewSubscription } from "../subscriptions/checkout/preview";
import { checkoutRequest } from "../subscriptions/checkout/request";
import { linkReader } from "../subscriptions/reports/conversion-record";
import { ZReaderIdQuery } from "../subscriptions/reports/conversions.schema";
import { ZClientQuery, ZSubscriberPathParams } from "../subscriptions/subscribers/subscribers.schema";
import type { RouteRateLimit } from "./rate-limit-rules";
import { json } from "./respond";
import { apiRoute } from "./route";

const NO_STORE = { "Cache-Control": "no-store" };
const MAX_BODY_BYTES = 32_768;

/** Server API: per account key. */
const SERVER_LIMITS = (what: string): RouteRateLimit[] => [
  { name: `checkout.${what}.server`, limit: 600, windowSeconds: 60, by: "key" },
];
/** Browsers: per IP (and account), and per reader. */
const BROWSER_LIMITS = (what: string): RouteRateLimit[] => [
  { name: `checkout.${what}.ip`, limit: 60, windowSeconds: 60, by: "ip+key" },
  { name: `checkout.${what}.reader`, limit: 30, windowSeconds: 60, by: "reader" },
];

type Step = "preview" | "create";

async function run(
  step: Step,
  db: Parameters<typeof previewSubscription>[0],
  accountId: number,
  who: CheckoutWho,
  body: TCheckoutBody,
  readerId: string | null = null,
) {
  const req = checkoutRequest(body);
  const now = new Date();
  if (step === "preview")
    return json(await previewSubscription(db, { accountId, who, req, now }), { headers: NO_STORE });
  const { subscription, created } = await createSubscription(db, { accountId, who, req, now });
  // The browser's reader id names the buyer: the story whose wall it hit gets the conversion.
  if (readerId)
    await linkReader(db, { accountId, readerId, memberId: subscription.subscriber_id, via: "checkout", now });
  return json({ subscription }, { status: created ? 201 : 200, headers: NO_STORE });
}

const bodyFor = <T extends z.ZodType<TCheckoutBody>>(step: Step, schema: T) =>
  step === "create" ? requireAttemptToken(schema) : schema;

const SUMMARY = {
  preview:
    'Preview a subscription: checks the plan, computes price (currency from payment.amount_currency), coupon discount, tax and trial, prepares the payment with the payment_type\'s adapter → {subscription (not saved: id null, payment_type "preview"), attempt_token (30 minutes, single use), external_reference_id, expires_at}. 422 naming the field for a plan not on sale, a coupon that does not apply, an unknown payment type.',
  create:
    "Create the subscription a preview promised: attempt_token (required) and the preview's body with payment.payment_token → 201 {subscription}; the same request repeated → 200 with the same subscription. 422 naming the field when the plan, type, payment type, amount, currency, coupon or assets differ from the preview, when the token is forged, expired or used by another request, or when the payment is refused.",
};

/** POST …/subscribers/<provider>/<identity>/subscriptions[/preview].json (X-SUBAUTH). */
export function serverCheckoutRoute(step: Step) {
  return apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      body: bodyFor(step, ZServerCheckoutBody),
      maxBodyBytes: MAX_BODY_BYTES,
      rateLimit: SERVER_LIMITS(step),
      summary: `${SUMMARY[step]} The subscriber is <provider>/<identity> (or alternate_provider/alternate_identity), created at create when new. Private groups' plans may be sold by id; manual and sponsored are allowed.`,
    },
    async ({ db, account, params, body }) => {
      const req = checkoutRequest(body);
      const who: CheckoutWho = { channel: "server", at: params, alternate: req.alternate };
      return run(step, db, account.id, who, body);
    },
  );
}

/** POST /api/access/v1/members/me/subscriptions[/preview] (key + accesstype_jwt/svc_jwt). */
export function clientCheckoutRoute(step: Step) {
  return apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery.extend(ZReaderIdQuery.shape),
      body: bodyFor(step, ZClientCheckoutBody),
      maxBodyBytes: MAX_BODY_BYTES,
      cors: true,
      rateLimit: BROWSER_LIMITS(step),
      summary: `${SUMMARY[step]} The subscriber is the JWT's reader; \`readerId\` (the browser's anonymous reader id, optional) is linked to it at create (conversions). Public groups only; manual and sponsored only when nothing is to be paid. Pay per asset: type "dynamic_assets" (or subscription_type dynamic_asset) and dynamic_assets [{id}].`,
    },
    async ({ db, account, user, body, query }) =>
      run(step, db, account.id, { channel: "client", user }, body, query.readerId),
  );
}

/** POST /api/access/v1/subscription-without-login[/preview] (key only). */
export function guestCheckoutRoute(step: Step) {
  return apiRoute(
    {
      auth: "client",
      query: ZClientQuery.extend(ZReaderIdQuery.shape),
      body: bodyFor(step, ZGuestCheckoutBody),
      maxBodyBytes: MAX_BODY_BYTES,
      cors: true,
      rateLimit: BROWSER_LIMITS(step),
      summary: `${SUMMARY[step]} Guest checkout (\`readerId\` as for the client API): emailAddress and/or phoneNumber (E.164), both attached to one subscriber (409 when they belong to two); metadata.mobile_number stays subscription metadata. Public groups only.`,
    },
    async ({ db, account, body, query }) =>
      run(
        step,
        db,
        account.id,
        { channel: "guest", email: body.emailAddress ?? null, phone: body.phoneNumber ?? null },
        body,
        query.readerId,
      ),
  );
}
