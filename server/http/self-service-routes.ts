/**
 * What the self-service page's routes (`/api/member/subscriptions…`, `/api/member/invoices/…`)
 * share, and the writes on a subscription (SELF_SERVICE_WRITES, one a route file): the signed-in member of the publisher's host (the session cookie or X-QT-AUTH), the
 * subscription id in the path, rate limits. Same-origin only (no CORS): the page is served by
 * Masthead on the publisher's host; the spec's client API is the cross-origin way to the same
 * services (docs/subscriptions.md "Self-service page").
 */
import { z } from "zod";

import { requestWords } from "../members/reader-locale";
import {
  confirmSelfServiceSwitch,
  previewSelfServiceSwitch,
  updateSelfServicePaymentMethod,
} from "../subscriptions/self-service/self-service";
import { acceptRetentionOffer, cancelWithReason, undoCancel } from "../subscriptions/self-service/self-service-cancel";
import {
  ZPaymentMethodInput,
  ZSelfServiceCancelInput,
  ZSelfServiceSwitchInput,
  ZSelfServiceSwitchPreviewInput,
  ZSelfServiceZoneQuery,
} from "../subscriptions/self-service/self-service.schema";
import { ZSubscriptionIdParam } from "../subscriptions/subscribers/subscription-actions.schema";
import { privateJson } from "./member-session";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

export const ZSelfServiceParams = z.object({ subscription_id: ZSubscriptionIdParam });

const LIMIT = { limit: 60, windowSeconds: 60, by: "reader" } as const;
export const SELF_SERVICE_READ_LIMIT = { name: "subscriptions.self_service.read", ...LIMIT, limit: 120 };
export const SELF_SERVICE_WRITE_LIMIT = { name: "subscriptions.self_service.write", ...LIMIT };

/** The apiRoute options of every `/api/member/subscriptions/<id>/…` write; a route adds body and summary. */
const SELF_SERVICE_WRITE_ROUTE = {
  auth: "member",
  params: ZSelfServiceParams,
  rateLimit: SELF_SERVICE_WRITE_LIMIT,
  maxBodyBytes: 4_096,
} as const;

/** The subscription of a self-service write: whose it is and which one, with the request's one `now`. */
type SelfServiceSubscription = { accountId: number; memberId: number; subscriptionId: number; now: Date };

type SelfServiceContext<Q extends z.ZodType, B extends z.ZodType> = HandlerContext<
  "member",
  Q,
  B,
  typeof ZSelfServiceParams
> & {
  subscription: SelfServiceSubscription;
  /** The words of the reader's language, for answers that say things in sentences. */
  words: () => ReturnType<typeof requestWords>;
};

/** One write on a subscription of the self-service page: `run`'s result is the private JSON answer. */
function selfServiceWrite<T, B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType>(
  options: Pick<RouteOptions<"member", Q, B, typeof ZSelfServiceParams>, "body" | "query"> & { summary: string },
  run: (ctx: SelfServiceContext<Q, B>) => Promise<T>,
): RouteHandler {
  return apiRoute(
    { ...SELF_SERVICE_WRITE_ROUTE, ...options },
    async (ctx: HandlerContext<"member", Q, B, typeof ZSelfServiceParams>) => {
      const { db, req, publisher, member, params } = ctx;
      const subscription = {
        accountId: publisher.accountId,
        memberId: member.member.id,
        subscriptionId: params.subscription_id,
        now: new Date(),
      };
      const words = () => requestWords(db, req, publisher.accountId, member.member.locale);
      return privateJson(await run({ ...ctx, subscription, words }));
    },
  );
}

/** The writes on one of the member's subscriptions, `/api/member/subscriptions/<id>/…`. */
export const SELF_SERVICE_WRITES = {
  cancel: selfServiceWrite(
    {
      body: ZSelfServiceCancelInput,
      summary:
        "{reason (too_expensive|not_using|found_alternative|technical|temporary|other), comment?} → {subscription}: cancelled at period end as the client API's cancel does; the reason is stored (revenue staff see it) and sent in the subscription.cancelled event as `cancellation`. Again: the same answer, nothing more stored. 422 for a failed or expired subscription; 404 for another member's.",
    },
    async ({ db, body, subscription }) => ({
      subscription: await cancelWithReason(db, { ...subscription, input: body }),
    }),
  ),
  retentionOffer: selfServiceWrite(
    {
      body: ZSelfServiceCancelInput,
      summary:
        "{reason, comment?} (why the reader meant to cancel) → {subscription, offer}: the account's retention offer applied instead of a cancel (a coupon off the next N charges, or a pause of N periods); the reason is stored. 422 when there is no offer for this subscription (none set, not a live recurring subscription, or an offer already taken).",
    },
    ({ db, body, subscription }) => acceptRetentionOffer(db, { ...subscription, input: body }),
  ),
  undoCancel: selfServiceWrite(
    {
      summary:
        "No body → {subscription}: active again, its next payment at the period end (recurring), as if never cancelled; subscription.activated is emitted with reactivated: true. 422 when it is not cancelled or its period has ended; 404 for another member's.",
    },
    async ({ db, subscription }) => ({ subscription: await undoCancel(db, subscription) }),
  ),
  paymentMethod: selfServiceWrite(
    {
      body: ZPaymentMethodInput,
      summary:
        "{payment_token (from the gateway's card form), signature?} → {subscription_id, label, message}: the gateway adapter checks the new method and the subscription's next charges use it. 422 when the gateway refuses it, the subscription is not recurring or has ended, or its gateway cannot change methods through Masthead; 503 when the gateway cannot be reached.",
    },
    ({ db, body, subscription }) => {
      const { payment_token, ...extra } = body;
      return updateSelfServicePaymentMethod(db, { ...subscription, paymentToken: payment_token, extra });
    },
  ),
  previewSwitch: selfServiceWrite(
    {
      body: ZSelfServiceSwitchPreviewInput,
      query: ZSelfServiceZoneQuery,
      summary:
        "{subscription_plan_id} → {attempt_token, chargeable_amount_cents, external_reference_id, switch {applies: now|scheduled, applies_at, price_cents, credit_cents, currency, …}, words (the terms as a sentence), needs_payment (a one-time switch paid in the gateway's form first)}: the client API's switch_plan/preview (the switch type found from the prices). 422 for a plan the subscription cannot switch to; 404 for another member's subscription. Optional query time_zone (the reader's, e.g. Europe/Paris): the zone `words` names its times in, else the account's; a zone that is not one is 400.",
    },
    async ({ db, body, query, subscription, words }) =>
      previewSelfServiceSwitch(db, {
        ...subscription,
        targetPlanId: body.subscription_plan_id,
        timeZone: query.time_zone,
        words: await words(),
      }),
  ),
  switch: selfServiceWrite(
    {
      body: ZSelfServiceSwitchInput,
      query: ZSelfServiceZoneQuery,
      summary:
        "{attempt_token (from the preview), payment_token and signature (only when a one-time switch costs something now: the gateway form's payment; a recurring switch is charged to the stored card)} → {subscription_id, plan_name, message}: the client API's switch_plan. The same token again answers the same, switching once. 409 when the plan's price changed since the preview (nothing charged: preview again); 422 for a token of another subscription, expired, or a payment refused. Optional query time_zone (the reader's, e.g. Europe/Paris): the zone `message` names its time in, else the account's; a zone that is not one is 400.",
    },
    async ({ db, body, query, subscription, words }) => {
      const { attempt_token, payment_token, ...extra } = body;
      return confirmSelfServiceSwitch(db, {
        ...subscription,
        attemptToken: attempt_token,
        paymentToken: payment_token ?? null,
        extra,
        timeZone: query.time_zone,
        words: await words(),
      });
    },
  ),
};
