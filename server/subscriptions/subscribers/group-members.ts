/**
 * Members of a group_access subscription (interface-spec §4.2 `…/subscriptions/<id>/members`,
 * rule 5; docs/subscriptions.md "Group access members"): the subscriber who bought the plan lets
 * other readers share it, at most the plan's user_limit of them. Access (../access/access.ts) already
 * grants a member what the subscription grants its subscriber.
 *
 * - Only group_access subscriptions take members (422 otherwise); a failed one takes none.
 * - The limit holds under concurrent adds: each add locks the subscription row (SELECT … FOR
 *   UPDATE) before it counts, so adds of one subscription run one after the other.
 * - A member is a reader of the account (one reader, one record): the one at {provider, identity},
 *   created there when new (subscribers.ts). Adding a member again changes nothing (created false).
 *   The subscriber is not a member of their own subscription (422).
 * - Adds and removals write audit rows `subscription.member_add` / `subscription.member_remove`.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import {
  listSubscriberIdentities,
  loadCumulativeEnds,
  resolveSubscriberCreated,
  subscriberToWire,
} from "./subscribers";
import type { TSubscriberWire } from "./subscribers.schema";
import { notFoundSubscription } from "./subscription-view";

const unprocessable = (field: string, issue: string, message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue }] });

type Scope = { accountId: number; ownerId: number; subscriptionId: number };

/** The subscription of the owner, locked for the rest of the transaction; another's is not found. */
async function lockOwned(tx: TransactionClient, scope: Scope) {
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM subscriptions
    WHERE id = ${scope.subscriptionId} AND account_id = ${scope.accountId} AND deleted_at IS NULL
    FOR UPDATE`;
  if (!locked.length) throw notFoundSubscription();
  const row = await tx.subscription.findUniqueOrThrow({
    where: { id: scope.subscriptionId },
    include: { plan: { select: { userLimit: true } } },
  });
  if (row.memberId !== scope.ownerId) throw notFoundSubscription();
  return row;
}

function assertGroupAccess(row: { subscriptionType: string }) {
  if (row.subscriptionType !== "GROUP_ACCESS")
    throw unprocessable(
      "subscription",
      "is not group_access",
      "Only group_access subscriptions take members; this one is " + row.subscriptionType.toLowerCase() + ".",
    );
}

/** The members of the subscription in the Subscriber shape, oldest first. */
async function membersWire(db: Db, accountId: number, subscriptionId: number, now: Date): Promise<TSubscriberWire[]> {
  const rows = await db.subscriptionMember.findMany({
    where: { subscriptionId },
    include: { member: { include: { subscriberProfile: true } } },
    orderBy: [{ createdAt: "asc" }, { memberId: "asc" }],
  });
  const cumulative = await loadCumulativeEnds(db, { accountId, memberIds: rows.map((r) => r.memberId), now });
  return Promise.all(
    rows.map(async ({ member }) =>
      subscriberToWire(
        member,
        await listSubscriberIdentities(db, member),
        member.subscriberProfile,
        cumulative.get(member.id),
      ),
    ),
  );
}

export async function listGroupMembers(db: Db, scope: Scope & { now: Date }) {
  const row = await db.subscription.findFirst({
    where: { id: scope.subscriptionId, accountId: scope.accountId, memberId: scope.ownerId, deletedAt: null },
    select: { id: true, subscriptionType: true },
  });
  if (!row) throw notFoundSubscription();
  assertGroupAccess(row);
  return membersWire(db, scope.accountId, row.id, scope.now);
}

/**
 * Add the reader at {provider, identity} (created when new, named `name` then) as a member.
 * Answers the member and whether this call added it (false: already a member).
 */
export async function addGroupMember(
  db: Db,
  args: Scope & { member: { provider: string; identity: string; name?: string | null }; now: Date },
): Promise<{ member: TSubscriberWire; added: boolean }> {
  const { accountId, now } = args;
  const { memberId, added } = await withTransaction(
    db,
    async (tx) => {
      const row = await lockOwned(tx, args);
      assertGroupAccess(row);
      if (row.status === "FAILED")
        throw unprocessable("subscription", "has failed", "A failed subscription takes no members.");
      const resolved = (await resolveSubscriberCreated(tx, {
        accountId,
        provider: args.member.provider,
        identity: args.member.identity,
        create: true,
        now,
      }))!;
      const member = resolved.member;
      if (resolved.created && args.member.name)
        await tx.member.update({ where: { id: member.id }, data: { name: args.member.name } });
      if (member.id === row.memberId)
        throw unprocessable(
          "member",
          "is the subscriber",
          "The subscriber has the subscription already; add other readers as members.",
        );
      const already = await tx.subscriptionMember.findUnique({
        where: { subscriptionId_memberId: { subscriptionId: row.id, memberId: member.id } },
      });
      if (already) return { memberId: member.id, added: false };
      const limit = row.plan?.userLimit ?? null;
      if (limit !== null) {
        const count = await tx.subscriptionMember.count({ where: { subscriptionId: row.id } });
        if (count >= limit)
          throw unprocessable(
            "member",
            "exceeds user_limit",
            `This subscription has ${count} members, its plan's user_limit: remove one before adding another.`,
          );
      }
      await tx.subscriptionMember.create({ data: { subscriptionId: row.id, memberId: member.id, createdAt: now } });
      await recordAudit(tx, {
        actor: systemActor(accountId, "server_api"),
        action: "subscription.member_add",
        targetType: "subscription",
        targetId: row.id,
        metadata: { member_id: member.id, user_limit: limit },
        now,
      });
      return { memberId: member.id, added: true };
    },
    { retryUniqueClashes: true },
  );
  const member = await db.member.findUniqueOrThrow({ where: { id: memberId }, include: { subscriberProfile: true } });
  const cumulative = await loadCumulativeEnds(db, { accountId, memberIds: [memberId], now });
  return {
    member: subscriberToWire(
      member,
      await listSubscriberIdentities(db, member),
      member.subscriberProfile,
      cumulative.get(memberId),
    ),
    added,
  };
}

/** Remove the members `ids` (member ids); ids that are not members are ignored. Answers how many went. */
export async function removeGroupMembers(db: Db, args: Scope & { ids: number[]; now: Date }): Promise<number> {
  return withTransaction(db, async (tx) => {
    const row = await lockOwned(tx, args);
    assertGroupAccess(row);
    const removed = await tx.subscriptionMember.deleteMany({
      where: { subscriptionId: row.id, memberId: { in: args.ids } },
    });
    if (removed.count)
      await recordAudit(tx, {
        actor: systemActor(args.accountId, "server_api"),
        action: "subscription.member_remove",
        targetType: "subscription",
        targetId: row.id,
        metadata: { member_ids: args.ids, removed: removed.count },
        now: args.now,
      });
    return removed.count;
  });
}
