/**
 * The server API's endpoints of a subscriber's subscriptions (docs/subscriptions.md, "Subscriptions
 * of a subscriber"), made here for the route files under app/api/v1/subscribers/: path and query
 * schemas, finding the subscriber of a server API path, one factory for their endpoints
 * (`subscriberRoute`), and the cancel handler that serves both `PUT …/cancel.json` and the
 * deprecated `DELETE`.
 */
import { z } from "zod";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { renewSubscription } from "../subscriptions/recurring/renewals";
import { ZRenewalBody } from "../subscriptions/recurring/renewals.schema";
import { addGroupMember, listGroupMembers, removeGroupMembers } from "../subscriptions/subscribers/group-members";
import { resolveSubscriber } from "../subscriptions/subscribers/subscribers";
import {
  ALTERNATE_IDENTITY_FIELDS,
  identityValueIssue,
  MAX_IDENTITY_LENGTH,
  refineAlternateIdentity,
  ZAlternateIdentity,
  ZProvider,
  ZSubscriberPathParams,
} from "../subscriptions/subscribers/subscribers.schema";
import {
  SUBSCRIPTION_METADATA_LIMITS,
  ZActiveOnly,
  ZAddGroupMemberBody,
  ZNotes,
  ZRemoveGroupMembersQuery,
  ZSubscriptionIdParam,
  ZSubscriptionMetadata,
} from "../subscriptions/subscribers/subscription-actions.schema";
import {
  cancelSubscription,
  listGiftedSubscriptions,
  listSubscriberSubscriptions,
  updateActiveSubscriptionsMetadata,
  updateSubscriptionMetadata,
} from "../subscriptions/subscribers/subscriptions";
import { json } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

const identityRefine = (o: { provider: string; identity: string }, ctx: z.RefinementCtx) => {
  const issue = identityValueIssue(o.provider, o.identity);
  if (issue) ctx.addIssue({ code: "custom", path: ["identity"], message: issue });
};

/** `<provider>/<identity>/subscriptions/<id>.json` */
const ZSubscriberSubscriptionParams = z
  .object({ provider: ZProvider, identity: z.string().max(MAX_IDENTITY_LENGTH), subscription_id: ZSubscriptionIdParam })
  .superRefine(identityRefine);

/** `alternate_provider`/`alternate_identity`, optional and together (§4). */
export const ZListQuery = z
  .object({ active_only: ZActiveOnly, ...ALTERNATE_IDENTITY_FIELDS })
  .superRefine(refineAlternateIdentity);
const ZAlternateQuery = ZAlternateIdentity;

export const NO_STORE = { headers: { "Cache-Control": "no-store" } };

/** The member at the path's identity (or the alternate one), or null. Reading never creates one. */
function findPathSubscriber(
  db: Db,
  args: {
    accountId: number;
    provider: string;
    identity: string;
    alternate_provider?: string;
    alternate_identity?: string;
  },
) {
  return resolveSubscriber(db, args);
}

const notFoundSubscriber = () => new AppError("NOT_FOUND", "No subscriber has this identity.");

const RATE_LIMIT = { limit: 600, windowSeconds: 60, by: "key" } as const;
const SERVER_WRITE_LIMIT = { name: "subscriptions.server.write", ...RATE_LIMIT };
const SERVER_READ_LIMIT = { name: "subscriptions.server.read", ...RATE_LIMIT };

/** The options of PUT …/cancel.json and of the deprecated DELETE …/<id>.json: the same cancel. */
export function serverCancelOptions(deprecated: boolean) {
  return {
    auth: "server",
    params: ZSubscriberSubscriptionParams,
    query: ZAlternateQuery,
    rateLimit: SERVER_WRITE_LIMIT,
    summary: deprecated
      ? "Deprecated (answers Deprecation: true and a Link to the successor): the same as PUT …/subscriptions/<id>/cancel.json → {subscription}."
      : "Cancel the subscriber's subscription at period end: status cancelled, cancelled_at set, access until end_timestamp (a pending one ends now) → {subscription}. Cancelling again changes nothing (200). 404 for another subscriber's or account's id; 422 for a failed one.",
  } as const;
}

type CancelContext = Pick<
  HandlerContext<"server", typeof ZAlternateQuery, z.ZodType, typeof ZSubscriberSubscriptionParams>,
  "db" | "account" | "params" | "query" | "url"
>;

/** The handler of both: cancel, and with `deprecated` say so in the headers. */
export function serverCancelHandler(deprecated: boolean) {
  return async ({ db, account, params, query, url }: CancelContext) => {
    const member = await findPathSubscriber(db, { accountId: account.id, ...params, ...query });
    if (!member) throw notFoundSubscriber();
    const subscription = await cancelSubscription(db, {
      accountId: account.id,
      caller: { via: "server_api", memberId: member.id },
      id: params.subscription_id,
      now: new Date(),
    });
    const headers: Record<string, string> = { "Cache-Control": "no-store" };
    if (deprecated) {
      headers.Deprecation = "true";
      const successor = url.pathname.replace(/(\.json)?$/, "/cancel.json");
      headers.Link = `<${successor}>; rel="successor-version"`;
    }
    return json({ subscription }, { headers });
  };
}

/** An answer with a status other than 200 (a `run` of subscriberRoute may give one). */
class WithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
const withStatus = (status: number, body: unknown) => new WithStatus(status, body);

type PathParams = z.output<typeof ZSubscriberPathParams>;
type Alternate = { alternate_provider?: string; alternate_identity?: string };

/** What a subscriber endpoint gets: the request's context, one `now`, the subscriber of the path. */
type SubscriberContext<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> = HandlerContext<
  "server",
  Q,
  B,
  P
> & {
  now: Date;
  /** The member at the path's identity (or at `alternate`, the query's), or null; never created. */
  subscriber: (alternate?: Alternate) => ReturnType<typeof findPathSubscriber>;
  /** The same, or 404 "No subscriber has this identity." */
  requireSubscriber: (alternate?: Alternate) => Promise<NonNullable<Awaited<ReturnType<typeof findPathSubscriber>>>>;
};

/**
 * One endpoint of the server API under `subscribers/<provider>/<identity>/…`: the server key, the
 * read or write limit; `run`'s result is the JSON answer (withStatus for another status than 200),
 * never cached.
 */
function subscriberRoute<
  T,
  P extends z.ZodType<PathParams>,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  options: Pick<RouteOptions<"server", Q, B, P>, "params" | "query" | "body" | "maxBodyBytes"> & {
    reads?: true;
    summary: string;
  },
  run: (ctx: SubscriberContext<Q, B, P>) => Promise<T | WithStatus>,
): RouteHandler {
  const { reads, ...rest } = options;
  return apiRoute(
    { auth: "server", ...rest, rateLimit: reads ? SERVER_READ_LIMIT : SERVER_WRITE_LIMIT },
    async (ctx: HandlerContext<"server", Q, B, P>) => {
      const { provider, identity } = ctx.params as PathParams;
      const subscriber = (alternate?: Alternate) =>
        findPathSubscriber(ctx.db, { accountId: ctx.account.id, provider, identity, ...alternate });
      const requireSubscriber = async (alternate?: Alternate) => {
        const member = await subscriber(alternate);
        if (!member) throw notFoundSubscriber();
        return member;
      };
      const result = await run({ ...ctx, now: new Date(), subscriber, requireSubscriber });
      return result instanceof WithStatus
        ? json(result.body, { status: result.status, headers: NO_STORE.headers })
        : json(result, NO_STORE);
    },
  );
}

const ZActiveMetadataBody = z.object({ metadata: ZSubscriptionMetadata });
const ZMetadataBody = z.object({
  subscription: z.object({ metadata: ZSubscriptionMetadata, notes: ZNotes.optional() }),
});

/** The server API's endpoints of a subscriber's subscriptions; their route files pick one. */
export const SUBSCRIBER_ROUTES = {
  list: subscriberRoute(
    {
      params: ZSubscriberPathParams,
      query: ZListQuery,
      reads: true,
      summary:
        "The subscriber's subscriptions, newest first → {subscriptions: [Subscription]}; active_only=true keeps those granting access now. A subscriber not found (at <provider>/<identity> or alternate_provider/alternate_identity) has none: {subscriptions: []}.",
    },
    async ({ db, account, query, now, subscriber }) => {
      const { active_only, ...alternate } = query;
      const member = await subscriber(alternate);
      const subscriptions = member
        ? await listSubscriberSubscriptions(db, {
            accountId: account.id,
            memberId: member.id,
            activeOnly: active_only,
            now,
          })
        : [];
      return { subscriptions };
    },
  ),
  updateActiveMetadata: subscriberRoute(
    {
      params: ZSubscriberPathParams,
      query: ZAlternateQuery,
      body: ZActiveMetadataBody,
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      summary:
        "{metadata}: merged into every subscription of the subscriber that grants access now (keys sent replace, null removes a key, others kept) → {subscriptions: [the subscriptions changed]}. 404 when no subscriber has the identity.",
    },
    async ({ db, account, query, body, now, requireSubscriber }) => {
      const member = await requireSubscriber(query);
      const subscriptions = await updateActiveSubscriptionsMetadata(db, {
        accountId: account.id,
        memberId: member.id,
        metadata: body.metadata,
        now,
      });
      return { subscriptions };
    },
  ),
  gifts: subscriberRoute(
    {
      params: ZSubscriberPathParams,
      query: ZAlternateQuery,
      reads: true,
      summary:
        "The subscriptions the subscriber gave as gifts (gifter = the subscriber; each held by its recipient, with gifter {id, name, email} and custom_message), newest first → {subscriptions: [Subscription]}. A subscriber not found has given none: {subscriptions: []}.",
    },
    async ({ db, account, query, now, subscriber }) => {
      const member = await subscriber(query);
      const subscriptions = member
        ? await listGiftedSubscriptions(db, { accountId: account.id, gifterMemberId: member.id, now })
        : [];
      return { subscriptions };
    },
  ),
  updateMetadata: subscriberRoute(
    {
      params: ZSubscriberSubscriptionParams,
      query: ZAlternateQuery,
      body: ZMetadataBody,
      maxBodyBytes: SUBSCRIPTION_METADATA_LIMITS.maxBodyBytes,
      summary:
        "{subscription: {metadata, notes?}}: metadata merged into the subscription's (keys sent replace, null removes a key, others kept) → {subscription}. 404 for another subscriber's or account's id.",
    },
    async ({ db, account, params, query, body, now, requireSubscriber }) => {
      const member = await requireSubscriber(query);
      const subscription = await updateSubscriptionMetadata(db, {
        accountId: account.id,
        caller: { via: "server_api", memberId: member.id },
        id: params.subscription_id,
        metadata: body.subscription.metadata,
        notes: body.subscription.notes,
        now,
      });
      return { subscription };
    },
  ),
  renew: subscriberRoute(
    {
      params: ZSubscriberSubscriptionParams,
      body: ZRenewalBody,
      maxBodyBytes: 32_768,
      summary:
        "Renew the subscriber's subscription: {subscription:{payment:{payment_type, payment_token (required), amount_cents?, amount_currency?, external_reference_id?}, coupon_code?, metadata?}} → 201 {subscription} (the new one: same plan, starting when the renewed one ends, or now if it has ended; metadata copied when omitted). The same payment_token again → 200 with the same subscription. 404 for another subscriber's id; 422 for a recurring, pending, failed, pay-per-asset or never-ending subscription, a plan no longer on sale, or a refused payment.",
    },
    async ({ db, account, params, body, now }) => {
      const alternate =
        body.alternate_provider && body.alternate_identity
          ? { provider: body.alternate_provider, identity: body.alternate_identity }
          : null;
      const { subscription, created } = await renewSubscription(db, {
        accountId: account.id,
        who: { channel: "server", at: { provider: params.provider, identity: params.identity }, alternate },
        subscriptionId: params.subscription_id,
        body,
        now,
      });
      return withStatus(created ? 201 : 200, { subscription });
    },
  ),
  /** The members of a group_access subscription. */
  members: {
    list: subscriberRoute(
      {
        params: ZSubscriberSubscriptionParams,
        reads: true,
        summary:
          "The members of the subscriber's group_access subscription, oldest first → {members: [Subscriber]}. 404 for another subscriber's id; 422 for a subscription of another type.",
      },
      async ({ db, account, params, now, requireSubscriber }) => {
        const owner = await requireSubscriber();
        const group = { accountId: account.id, ownerId: owner.id, subscriptionId: params.subscription_id, now };
        return { members: await listGroupMembers(db, group) };
      },
    ),
    add: subscriberRoute(
      {
        params: ZSubscriberSubscriptionParams,
        body: ZAddGroupMemberBody,
        maxBodyBytes: 4_096,
        summary:
          "{member:{provider, identity, name?}}: add the reader at that identity (created when new) as a member → 201 {members: Subscriber} (the member added); already a member → 200, nothing changed. 422 when the plan's user_limit is reached, for a subscription that is not group_access or has failed, or for the subscriber themself; 404 for another subscriber's id.",
      },
      async ({ db, account, params, body, now, requireSubscriber }) => {
        const owner = await requireSubscriber();
        const group = { accountId: account.id, ownerId: owner.id, subscriptionId: params.subscription_id, now };
        const { member, added } = await addGroupMember(db, { ...group, member: body.member });
        return withStatus(added ? 201 : 200, { members: member });
      },
    ),
    remove: subscriberRoute(
      {
        params: ZSubscriberSubscriptionParams,
        query: ZRemoveGroupMembersQuery,
        summary:
          "ids[]=<member id> (required, repeatable): remove those members (ids that are not members are ignored) → {}. 404 for another subscriber's id; 422 for a subscription that is not group_access.",
      },
      async ({ db, account, params, query, now, requireSubscriber }) => {
        const owner = await requireSubscriber();
        const group = { accountId: account.id, ownerId: owner.id, subscriptionId: params.subscription_id, now };
        await removeGroupMembers(db, { ...group, ids: query.ids });
        return {};
      },
    ),
  },
};
