/**
 * What the route files of a subscriber's subscriptions share (docs/subscriptions.md,
 * "Subscriptions of a subscriber"): path and query schemas, finding the subscriber of a server API
 * path, and the cancel handler that serves both `PUT …/cancel.json` and the deprecated `DELETE`.
 */
import { z } from "zod";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { resolveSubscriber } from "../subscriptions/subscribers/subscribers";
import {
  ALTERNATE_IDENTITY_FIELDS,
  identityValueIssue,
  MAX_IDENTITY_LENGTH,
  refineAlternateIdentity,
  ZAlternateIdentity,
  ZProvider,
} from "../subscriptions/subscribers/subscribers.schema";
import { ZActiveOnly, ZSubscriptionIdParam } from "../subscriptions/subscribers/subscription-actions.schema";
import { cancelSubscription } from "../subscriptions/subscribers/subscriptions";
import { json } from "./respond";
import type { HandlerContext } from "./route";

const identityRefine = (o: { provider: string; identity: string }, ctx: z.RefinementCtx) => {
  const issue = identityValueIssue(o.provider, o.identity);
  if (issue) ctx.addIssue({ code: "custom", path: ["identity"], message: issue });
};

/** `<provider>/<identity>/subscriptions/<id>.json` */
export const ZSubscriberSubscriptionParams = z
  .object({ provider: ZProvider, identity: z.string().max(MAX_IDENTITY_LENGTH), subscription_id: ZSubscriptionIdParam })
  .superRefine(identityRefine);

/** `alternate_provider`/`alternate_identity`, optional and together (§4). */
export const ZListQuery = z
  .object({ active_only: ZActiveOnly, ...ALTERNATE_IDENTITY_FIELDS })
  .superRefine(refineAlternateIdentity);
export const ZAlternateQuery = ZAlternateIdentity;

export const NO_STORE = { headers: { "Cache-Control": "no-store" } };

/** The member at the path's identity (or the alternate one), or null. Reading never creates one. */
export function findPathSubscriber(
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

export const notFoundSubscriber = () => new AppError("NOT_FOUND", "No subscriber has this identity.");

const RATE_LIMIT = { limit: 600, windowSeconds: 60, by: "key" } as const;
export const SERVER_WRITE_LIMIT = { name: "subscriptions.server.write", ...RATE_LIMIT };
export const SERVER_READ_LIMIT = { name: "subscriptions.server.read", ...RATE_LIMIT };

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
