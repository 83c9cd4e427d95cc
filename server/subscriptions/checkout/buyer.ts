/**
 * Who is buying (docs/subscriptions.md "Checkout"): a subscriber named by identity (server API,
 * X-SUBAUTH), the reader of a publisher-signed JWT (client API), or a guest (an e-mail and/or a
 * phone number). A preview finds the buyer; a create finds or creates it, in its transaction.
 */
import "server-only";

import type { ApiUser } from "../../auth/api-auth";
import type { Db, TransactionClient } from "../../db/client";
import { findJwtMember, findOrCreateJwtMember, PUBLISHER_JWT_PROVIDER } from "../../members/identities";
import type { MemberRecord } from "../../members/members";
import {
  resolveGuestSubscriber,
  resolveSubscriber,
  resolveSubscriberCreated,
  type IdentityRef,
} from "../subscribers/subscribers";
import { normaliseIdentityValue } from "../subscribers/subscribers.schema";

export type CheckoutWho =
  | { channel: "server"; at: IdentityRef; alternate: IdentityRef | null }
  | { channel: "client"; user: ApiUser }
  | { channel: "guest"; email: string | null; phone: string | null };

/** What made a subscription (its `createdBy`), by the channel that bought it. */
export const CREATED_BY = { server: "server_api", client: "client_api", guest: "guest_checkout" } as const;

/** The text the attempt is bound to: the same buyer must come back with its token. */
export function bindingOf(who: CheckoutWho): string {
  switch (who.channel) {
    case "server":
      return `server:${who.at.provider}/${normaliseIdentityValue(who.at.provider, who.at.identity)}`;
    case "client":
      return `client:${who.user.id}`;
    case "guest":
      return `guest:${who.email ? normaliseIdentityValue("email", who.email) : ""}|${who.phone ?? ""}`;
  }
}

/** The identity the subscription names its subscriber by (the buyer's, normalised). */
export function preferredIdentityOf(who: CheckoutWho): { provider: string; value: string } {
  switch (who.channel) {
    case "server":
      return { provider: who.at.provider, value: normaliseIdentityValue(who.at.provider, who.at.identity) };
    case "client":
      return { provider: PUBLISHER_JWT_PROVIDER, value: who.user.id };
    case "guest":
      return who.email
        ? { provider: "email", value: normaliseIdentityValue("email", who.email) }
        : { provider: "phone", value: who.phone! };
  }
}

/** The existing subscriber, without creating one (preview). Guests are found at create. */
export async function findBuyer(db: Db, accountId: number, who: CheckoutWho): Promise<MemberRecord | null> {
  if (who.channel === "server")
    return resolveSubscriber(db, {
      accountId,
      ...who.at,
      alternate_provider: who.alternate?.provider,
      alternate_identity: who.alternate?.identity,
    });
  if (who.channel === "client") return findJwtMember(db, { accountId, userId: who.user.id });
  return null;
}

/** The subscriber, created when new (create, in its transaction). */
export async function resolveBuyer(
  tx: TransactionClient,
  accountId: number,
  who: CheckoutWho,
  now: Date,
): Promise<{ member: MemberRecord; created: boolean }> {
  if (who.channel === "server")
    return (await resolveSubscriberCreated(tx, {
      accountId,
      ...who.at,
      alternate_provider: who.alternate?.provider,
      alternate_identity: who.alternate?.identity,
      create: true,
      now,
    }))!;
  if (who.channel === "client") {
    const existing = await findJwtMember(tx, { accountId, userId: who.user.id });
    const member = await findOrCreateJwtMember(tx, { accountId, user: who.user, now, linkProviderClaim: true });
    return { member, created: !existing };
  }
  return resolveGuestSubscriber(tx, { accountId, email: who.email, phone: who.phone, now });
}
