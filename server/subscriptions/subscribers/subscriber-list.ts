/**
 * Revenue staff's list of subscribers (tRPC subscribers.search): one search box over every way a
 * reader is known, paying subscribers or every member, each with their sign-in e-mail and where
 * they stand (subscriber-standing.ts).
 */
import "server-only";

import type { Db } from "../../db/client";
import type { Prisma } from "../../generated/prisma/client";
import { isPlaceholderEmail } from "../../members/identities";
import { memberLookupConditions } from "../../members/member-lookup";
import { ERASED_SOURCE } from "../../members/members.schema";
import { pausedUntilOf } from "../recurring/pauses";
import { STANDING_SUBSCRIPTIONS, SUBSCRIBED_STATUSES, subscriberStanding } from "./subscriber-standing";
import { EMAIL_PROVIDER, loadCumulativeEnds, subscriberToWire } from "./subscribers";
import type { TSearchSubscribersInput, TSubscriberRow } from "./subscribers.schema";

/**
 * What one search box matches (the revenue dashboard's lookup): any member the members' lookup
 * finds (server/members/member-lookup.ts: e-mails, name, username, phone, identities, member id,
 * `provider:identity`), and the external id of one of their subscriptions.
 */
function lookupConditions(q: string): Prisma.MemberWhereInput[] {
  return [...memberLookupConditions(q), { subscriptions: { some: { externalId: q } } }];
}

/**
 * The account's members whose e-mail, communication e-mail, name or an identity value contains
 * `q` (case-insensitive), most recent first, in the Subscriber shape with their e-mail and
 * standing; an empty `q` lists the most recent. `who`: "paying" keeps those who ever took a
 * subscription (not only a failed checkout), "all" every member (commenters and readers too).
 */
export async function searchSubscribers(
  db: Db,
  args: { accountId: number; now: Date } & Required<TSearchSubscribersInput>,
): Promise<TSubscriberRow[]> {
  const q = args.q.trim();
  const members = await db.member.findMany({
    where: {
      accountId: args.accountId,
      // An erased reader's tombstone is nobody to find (docs/privacy.md "Erasure").
      source: { not: ERASED_SOURCE },
      ...(q ? { OR: lookupConditions(q) } : {}),
      ...(args.who === "paying"
        ? { subscriptions: { some: { status: { in: [...SUBSCRIBED_STATUSES] }, deletedAt: null } } }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: args.limit,
    include: {
      subscriberProfile: true,
      identities: { orderBy: { id: "asc" } },
      subscriptions: STANDING_SUBSCRIPTIONS,
    },
  });
  const paused = await pausedUntilOf(
    db,
    members.flatMap((m) => m.subscriptions),
  );
  const cumulative = await loadCumulativeEnds(db, {
    accountId: args.accountId,
    memberIds: members.map((m) => m.id),
    now: args.now,
  });
  return members.map((m) => {
    // A reader known by a publisher JWT (or a social login) has a placeholder sign-in e-mail: staff
    // see the address their login's claims gave (kept as communicationEmail), when there is one.
    const signInEmail = isPlaceholderEmail(m.email) ? null : m.email;
    const email = signInEmail ?? m.communicationEmail;
    return {
      ...subscriberToWire(
        m,
        [
          ...(signInEmail ? [{ provider: EMAIL_PROVIDER, value: signInEmail }] : []),
          ...m.identities.map((i) => ({ provider: i.provider, value: i.externalId })),
        ],
        m.subscriberProfile,
        cumulative.get(m.id),
      ),
      email,
      standing: subscriberStanding(m.subscriptions, args.now, paused),
    };
  });
}
