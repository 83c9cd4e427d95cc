/**
 * What the client API's `members/me/subscriptions…` route files share: the reader of the JWT as a
 * subscriber, the path schema, CORS and rate limits (docs/subscriptions.md, "Subscriptions of a
 * subscriber").
 */
import { z } from "zod";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { findJwtMember } from "../members/identities";
import { ZClientQuery } from "../subscriptions/subscribers/subscribers.schema";
import { ZSubscriptionIdParam } from "../subscriptions/subscribers/subscription-actions.schema";
import { notFoundSubscription } from "../subscriptions/subscribers/subscription-view";

const ZReaderSubscriptionParams = z.object({ subscription_id: ZSubscriptionIdParam });

/**
 * The apiRoute options every `members/me/subscriptions/<id>…` route shares: the account key and
 * the reader's JWT, the subscription id in the path, CORS. Spread first; a route adds its body,
 * rate limit and summary (and may widen the query).
 */
export const READER_SUBSCRIPTION_ROUTE = {
  auth: "client+user",
  query: ZClientQuery,
  params: ZReaderSubscriptionParams,
  cors: true,
} as const;

export const PRIVATE_NO_STORE = { headers: { "Cache-Control": "private, no-store" } };

const RATE_LIMIT = { limit: 120, windowSeconds: 60, by: "ip+key" } as const;
export const READER_READ_LIMIT = { name: "subscriptions.reader.read", ...RATE_LIMIT };
export const READER_WRITE_LIMIT = { name: "subscriptions.reader.write", ...RATE_LIMIT };

/** The member of the JWT's reader, or null (never seen, or no JWT). Reading never creates one. */
export async function readerMember(db: Db, accountId: number, user: ApiUser | null) {
  return user ? findJwtMember(db, { accountId, userId: user.id }) : null;
}

/** The reader's member id; a reader never seen has no subscriptions, so theirs is a 404. */
export async function readerMemberId(db: Db, accountId: number, user: ApiUser): Promise<number> {
  const member = await readerMember(db, accountId, user);
  if (!member) throw notFoundSubscription();
  return member.id;
}
