/**
 * The client API's endpoints of the reader's own subscriptions, `members/me/subscriptions…`, and
 * the reader's lists beside them (`members/me/subscription-gifts`, `…/invoices`, `…/credit-notes`),
 * made here; their route files pick one (docs/subscriptions.md, "Subscriptions of a subscriber").
 * All share the reader of the JWT as a subscriber (reading never creates one), CORS, the rate
 * limits and `Cache-Control: private, no-store`.
 */
import { z } from "zod";

import { getEnv } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findJwtMember } from "../members/identities";
import { listCreditNotes } from "../subscriptions/invoices/credit-notes";
import { listMemberInvoices } from "../subscriptions/invoices/invoices";
import { updateCardLink } from "../subscriptions/recurring/dunning";
import { previewPlanSwitch } from "../subscriptions/recurring/plan-switch";
import { applyPlanSwitch } from "../subscriptions/recurring/plan-switch-apply";
import { scheduledSwitchOf } from "../subscriptions/recurring/plan-switch-scheduled";
import { cancelWithReason } from "../subscriptions/self-service/self-service-cancel";
import { ZSelfServiceCancelInput } from "../subscriptions/self-service/self-service.schema";
import { ZClientQuery } from "../subscriptions/subscribers/subscribers.schema";
import {
  SUBSCRIPTION_METADATA_LIMITS,
  ZExtendTo,
  ZNotes,
  ZSubscriptionIdParam,
  ZSubscriptionMetadata,
  ZSwitchBody,
  ZSwitchPreviewBody,
} from "../subscriptions/subscribers/subscription-actions.schema";
import { notFoundSubscription } from "../subscriptions/subscribers/subscription-view";
import {
  cancelSubscription,
  extendSubscription,
  getSubscription,
  listGiftedSubscriptions,
  listSubscriberSubscriptions,
  switchPlanDetails,
  updateSubscriptionMetadata,
} from "../subscriptions/subscribers/subscriptions";
import { json, noContent } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

const ZReaderSubscriptionParams = z.object({ subscription_id: ZSubscriptionIdParam });

/**
 * The apiRoute options every `members/me/subscriptions/<id>…` route shares: the account key and
 * the reader's JWT, the subscription id in the path, CORS. Spread first; a route adds its body,
 * rate limit and summary (and may widen the query).
 */
const READER_SUBSCRIPTION_ROUTE = {
  auth: "client+user",
  query: ZClientQuery,
  params: ZReaderSubscriptionParams,
  cors: true,
} as const;

const PRIVATE_NO_STORE = { headers: { "Cache-Control": "private, no-store" } };

const RATE_LIMIT = { limit: 120, windowSeconds: 60, by: "ip+key" } as const;
export const READER_READ_LIMIT = { name: "subscriptions.reader.read", ...RATE_LIMIT };
const READER_WRITE_LIMIT = { name: "subscriptions.reader.write", ...RATE_LIMIT };

/** The member of the JWT's reader, or null (never seen, or no JWT). Reading never creates one. */
export async function readerMember(db: Db, accountId: number, user: ApiUser | null) {
  return user ? findJwtMember(db, { accountId, userId: user.id }) : null;
}

/** The reader's member id; a reader never seen has no subscriptions, so theirs is a 404. */
async function readerMemberId(db: Db, accountId: number, user: ApiUser): Promise<number> {
  const member = await readerMember(db, accountId, user);
  if (!member) throw notFoundSubscription();
  return member.id;
}

/** What an endpoint under `members/me/subscriptions/<id>` gets: the request's context, one `now`, the reader. */
type ReaderSubscriptionContext<Q extends z.ZodType, B extends z.ZodType> = HandlerContext<
  "client+user",
  Q,
  B,
  typeof ZReaderSubscriptionParams
> & {
  now: Date;
  /** The reader's member id (404 for a reader never seen), looked up when asked. */
  memberId: () => Promise<number>;
};

/**
 * One endpoint under `members/me/subscriptions/<id>`: the family's scheme, path and CORS, the read
 * or write limit; `run`'s result is the JSON answer (null: 204 with an empty body), never cached.
 */
function readerSubscriptionRoute<T, Q extends z.ZodType = typeof ZClientQuery, B extends z.ZodType = z.ZodType>(
  options: Pick<RouteOptions<"client+user", Q, B, z.ZodType>, "query" | "body" | "maxBodyBytes"> & {
    reads?: true;
    summary: string;
  },
  run: (ctx: ReaderSubscriptionContext<Q, B>) => Promise<T | null>,
): RouteHandler {
  const { reads, query, ...rest } = options;
  return apiRoute(
    {
      ...READER_SUBSCRIPTION_ROUTE,
      ...rest,
      // The client key (and JWT) always; a route may widen the query.
      query: (query ?? ZClientQuery) as Q,
      rateLimit: reads ? READER_READ_LIMIT : READER_WRITE_LIMIT,
    },
    async (ctx: HandlerContext<"client+user", Q, B, typeof ZReaderSubscriptionParams>) => {
      const memberId = () => readerMemberId(ctx.db, ctx.account.id, ctx.user);
      const result = await run({ ...ctx, now: new Date(), memberId });
      return result === null ? noContent(PRIVATE_NO_STORE) : json(result, PRIVATE_NO_STORE);
    },
  );
}

/**
 * A list of the reader's (`members/me/…`): empty without a JWT or for a reader never seen, whom
 * reading never creates; `answer` shapes the list into the JSON answer, never cached.
 */
function readerListRoute<T>(options: {
  signedIn: boolean;
  summary: string;
  list: (db: Db, reader: { accountId: number; memberId: number; now: Date }) => Promise<T[]>;
  answer: (list: T[]) => unknown;
}): RouteHandler {
  return apiRoute(
    {
      auth: options.signedIn ? "client+user" : "client+optionalUser",
      query: ZClientQuery,
      cors: true,
      rateLimit: READER_READ_LIMIT,
      summary: options.summary,
    },
    async ({ db, account, user }) => {
      const member = await readerMember(db, account.id, user);
      const list = member
        ? await options.list(db, { accountId: account.id, memberId: member.id, now: new Date() })
        : [];
      return json(options.answer(list), PRIVATE_NO_STORE);
    },
  );
}

/** The reader's lists: their subscriptions, the ones they gave, their invoices and credit notes. */
export const READER_LISTS = {
  subscriptions: readerListRoute({
    signedIn: false,
    summary:
      "The reader's subscriptions, newest first → [Subscription]. Without a JWT, or for a reader never seen, [] (the spec marks the JWT optional; no reader has no subscriptions).",
    list: (db, reader) => listSubscriberSubscriptions(db, { ...reader, activeOnly: false }),
    answer: (list) => list,
  }),
  gifts: readerListRoute({
    signedIn: false,
    summary:
      "The subscriptions the reader gave as gifts, newest first → [Subscription]; [] without a JWT or for a reader never seen. POST answers the same (the spec's sample command uses POST).",
    list: (db, { accountId, memberId, now }) =>
      listGiftedSubscriptions(db, { accountId, gifterMemberId: memberId, now }),
    answer: (list) => list,
  }),
  invoices: readerListRoute({
    signedIn: true,
    summary:
      "The reader's invoices, newest first → {invoices: [Invoice]} (spec §2.2). Each is downloadable at …/members/me/invoices/<id>.pdf and printable at …/<id>.html with the same key and JWT.",
    list: (db, { accountId, memberId }) => listMemberInvoices(db, { accountId, memberId }),
    answer: (invoices) => ({ invoices }),
  }),
  creditNotes: readerListRoute({
    signedIn: true,
    summary:
      "The reader's credit notes (one per refund of an invoiced payment), newest first → {credit_notes: [CreditNote]}. Each is downloadable at …/members/me/credit-notes/<id>.pdf and printable at …/<id>.html with the same key and JWT.",
    list: (db, { accountId, memberId }) => listCreditNotes(db, { accountId, memberId }),
    answer: (notes) => ({ credit_notes: notes }),
  }),
};

const ZReaderMetadataBody = z.object({
  subscription: z.object({ metadata: ZSubscriptionMetadata, notes: ZNotes.optional() }),
});

/** The endpoints of one of the reader's subscriptions, `members/me/subscriptions/<id>[/…]`. */
export const READER_SUBSCRIPTION = {
  get: readerSubscriptionRoute(
    {
      reads: true,
      summary:
        "One of the reader's subscriptions with the plans it may switch to → {subscription, original_attempt_token: null, upgrade_plan_details, downgrade_plan_details, crossgrade_plan_details} (the other enabled plans of its group by price per day; prorated_amount_cents null: preview the switch for the charge), proration_enabled (the group's setting) and scheduled_switch (a switch waiting for the period end: {subscription_plan_id, plan_name, switch_type, scheduled_at, price_cents, currency, paid_cents}, or null). 404 for another reader's or account's id.",
    },
    async ({ db, account, params, now, memberId }) => {
      const subscription = await getSubscription(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId: await memberId() },
        id: params.subscription_id,
        now,
      });
      const switches = await switchPlanDetails(db, { accountId: account.id, subscription });
      const scheduled = await scheduledSwitchOf(db, { accountId: account.id, subscriptionId: subscription.id });
      return { subscription, original_attempt_token: null, ...switches, ...scheduled };
    },
  ),
  updateMetadata: readerSubscriptionRoute(
    {
      body: ZReaderMetadataBody,
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      summary:
        "{subscription: {metadata, notes?}}: metadata merged into the subscription's (keys sent replace, null removes a key) → {message: \"Subscription Updated\"}. The JWT is required (401 without); 404 for another reader's or account's id.",
    },
    async ({ db, account, params, body, now, memberId }) => {
      await updateSubscriptionMetadata(db, {
        accountId: account.id,
        caller: { via: "client_api", memberId: await memberId() },
        id: params.subscription_id,
        metadata: body.subscription.metadata,
        notes: body.subscription.notes,
        now,
      });
      return { message: "Subscription Updated" };
    },
  ),
  cancel: readerSubscriptionRoute(
    {
      // Optional: the reader's reason, as the self-service page sends it (docs/subscriptions.md "Self-service page").
      body: ZSelfServiceCancelInput.partial(),
      maxBodyBytes: 4_096,
      summary:
        "Cancel one of the reader's subscriptions at period end (access until end_timestamp; a pending one ends now) → 204, empty body. No body, or {reason (too_expensive|not_using|found_alternative|technical|temporary|other), comment?}: the reason is stored and sent in the subscription.cancelled event, as the self-service page's cancel does. Again: 204, nothing changes. The JWT is required (401 without); 404 for another reader's or account's id; 422 for a failed one.",
    },
    async ({ db, account, params, body, now, memberId }) => {
      const reader = { accountId: account.id, memberId: await memberId() };
      if (body.reason) {
        const input = { reason: body.reason, comment: body.comment };
        await cancelWithReason(db, { ...reader, subscriptionId: params.subscription_id, input, now });
      } else {
        const caller = { via: "client_api" as const, memberId: reader.memberId };
        await cancelSubscription(db, { accountId: account.id, caller, id: params.subscription_id, now });
      }
      return null;
    },
  ),
  cardLink: readerSubscriptionRoute(
    {
      summary:
        "No body → {url, expires_at}: the signed link (HMAC, bound to this subscription and reader, expiring with the grace period, at most 14 days) to the card update of one of the reader's subscriptions in its grace period, the same link the 'update your card' e-mail carries; it works without a password or session (a reader known only by the publisher's JWT). The JWT is required (401 without); 404 for another reader's or account's id; 422 when the subscription is not in its grace period.",
    },
    async ({ db, account, params, now, memberId }) => {
      const sub = await db.subscription.findFirst({
        where: { id: params.subscription_id, accountId: account.id, memberId: await memberId(), deletedAt: null },
        select: { id: true, status: true, graceEndsAt: true },
      });
      if (!sub) throw notFoundSubscription();
      if (sub.status !== "ACTIVE" || !sub.graceEndsAt || sub.graceEndsAt <= now)
        throw new AppError(
          "UNPROCESSABLE",
          "This subscription is not in its grace period: its card needs no update now.",
          {
            details: [{ field: "subscription", issue: "is not in its grace period" }],
          },
        );
      const url = await updateCardLink(db, {
        accountId: account.id,
        subscriptionId: sub.id,
        appUrl: getEnv().APP_URL,
        now,
      });
      return { url, expires_at: sub.graceEndsAt.toISOString() };
    },
  ),
  extend: readerSubscriptionRoute(
    {
      query: ZClientQuery.extend({ extend_to: ZExtendTo.optional() }),
      body: z.object({ extend_to: ZExtendTo.optional() }),
      summary:
        'extend_to (body or query): "indefinitely" or YYYY-MM-DD (the end becomes the end of that day, UTC; not in the past, after the current end) → {message: "Subscription Extended"}. 422 for recurring, cancelled or failed subscriptions and for a date not allowed; 400 for another form.',
    },
    async ({ db, account, params, body, query, now, memberId }) => {
      const extendTo = body.extend_to ?? query.extend_to;
      if (!extendTo) {
        throw new AppError("BAD_REQUEST", "extend_to is required: indefinitely or a date YYYY-MM-DD.", {
          details: [{ field: "body.extend_to", issue: "is required" }],
        });
      }
      const caller = { via: "client_api" as const, memberId: await memberId() };
      await extendSubscription(db, { accountId: account.id, caller, id: params.subscription_id, extendTo, now });
      return { message: "Subscription Extended" };
    },
  ),
  previewSwitch: readerSubscriptionRoute(
    {
      body: ZSwitchPreviewBody,
      maxBodyBytes: 4_096,
      summary:
        "{subscription_plan_id, switch_type (upgrade|crossgrade|downgrade)} → {subscription, attempt_token, chargeable_amount_cents (one-time plans: the prorated charge, target price − unused credit, or the full price when proration is off; recurring plans applied now: the prorated difference charged to the stored card at the switch (on Stripe: what Stripe's own proration will charge, at an instant frozen in the attempt), 0 for a downgrade whose difference becomes credit; null for a recurring switch scheduled for the next charge), external_reference_id, switch {applies: now|scheduled, applies_at, price_cents, credit_cents, charged_with, and for recurring plans rest_cents, carry_cents, resets_cycle, credit_balance_cents, next_charge_at, next_charge_cents or scheduled_reason, …}}. 422 when switch_type is not what the prices make it, the gateway that charges the subscription cannot make this switch (e.g. no razorpay_plan_id on the target plan), the target has no price in the subscription's currency, is not an enabled plan of its group, or the subscription is not active; 503 when that gateway cannot be reached; 404 for another reader's id.",
    },
    async ({ db, account, params, body, now, memberId }) =>
      previewPlanSwitch(db, {
        accountId: account.id,
        memberId: await memberId(),
        subscriptionId: params.subscription_id,
        targetPlanId: body.subscription_plan_id,
        switchType: body.switch_type,
        now,
      }),
  ),
  switchPlan: readerSubscriptionRoute(
    {
      body: ZSwitchBody,
      maxBodyBytes: 8_192,
      summary:
        "{attempt_token (from the preview), payment_token (when the switch is paid), the gateway's signature fields} → {subscription, attempt_token, message}: switched now (\"Subscription plan switched.\"; a recurring upgrade's difference charged once to the stored card, a downgrade's carried as credit to the next charges; on Stripe, Stripe's prorated charge as previewed, through Stripe), or, when proration is off, the gateway changes plans only from its next cycle (Razorpay), nobody charges a stored card or it is in its trial, scheduled for the period end (the message says why; GET …/subscriptions/<id> shows scheduled_switch; a gateway that charges by itself is moved to the new plan from its next cycle now). The same token again answers the subscription as it is, charging nothing more. 409 when the plan's price changed since the preview; 422 for a token of another subscription, expired, a payment refused, a charge declined or the gateway refusing or now charging another amount; 503 when the gateway cannot be reached (nothing changes in any of these).",
    },
    async ({ db, account, params, body, now, memberId }) => {
      const { attempt_token, payment_token, ...extra } = body;
      return applyPlanSwitch(db, {
        accountId: account.id,
        memberId: await memberId(),
        subscriptionId: params.subscription_id,
        attemptToken: attempt_token,
        paymentToken: payment_token ?? null,
        extra,
        now,
      });
    },
  ),
};
