/**
 * What the self-service page's routes (`/api/member/subscriptions…`, `/api/member/invoices/…`)
 * share: the signed-in member of the publisher's host (the session cookie or X-QT-AUTH), the
 * subscription id in the path, rate limits. Same-origin only (no CORS): the page is served by
 * Masthead on the publisher's host; the spec's client API is the cross-origin way to the same
 * services (docs/subscriptions.md "Self-service page").
 */
import { z } from "zod";

import { ZSubscriptionIdParam } from "../subscriptions/subscribers/subscription-actions.schema";

export const ZSelfServiceParams = z.object({ subscription_id: ZSubscriptionIdParam });

const LIMIT = { limit: 60, windowSeconds: 60, by: "reader" } as const;
export const SELF_SERVICE_READ_LIMIT = { name: "subscriptions.self_service.read", ...LIMIT, limit: 120 };
export const SELF_SERVICE_WRITE_LIMIT = { name: "subscriptions.self_service.write", ...LIMIT };

/** The apiRoute options of every `/api/member/subscriptions/<id>/…` write; a route adds body and summary. */
export const SELF_SERVICE_WRITE_ROUTE = {
  auth: "member",
  params: ZSelfServiceParams,
  rateLimit: SELF_SERVICE_WRITE_LIMIT,
  maxBodyBytes: 4_096,
} as const;
