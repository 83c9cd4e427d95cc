/**
 * A subscriber's customers at payment gateways (member_gateway_customers; docs/subscriptions.md
 * "Stripe" → "One Stripe customer per reader"): one per account, member, provider and
 * environment. Checkout hands the adapter these for a known reader (PaymentIntent.customers); the
 * adapter makes the gateway's customer once and records it here. Two checkouts racing to record
 * one: the unique index keeps the first, and both read it back.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import type { GatewayCustomers, GatewayEnvironment } from "./adapter";

export function memberGatewayCustomers(db: Db, accountId: number, memberId: number): GatewayCustomers {
  const where = (provider: string, environment: GatewayEnvironment) => ({
    accountId_memberId_provider_environment: { accountId, memberId, provider, environment },
  });
  const find = async (provider: string, environment: GatewayEnvironment) =>
    (await db.memberGatewayCustomer.findUnique({ where: where(provider, environment) }))?.externalCustomerId ?? null;
  return {
    key: `${accountId}-${memberId}`,
    find,
    async remember(provider, environment, externalId) {
      // INSERT … ON CONFLICT DO NOTHING: the first recorded stays, whoever it was.
      await db.memberGatewayCustomer.createMany({
        data: [{ accountId, memberId, provider, environment, externalCustomerId: externalId }],
        skipDuplicates: true,
      });
      const recorded = await find(provider, environment);
      if (!recorded) throw new Error("The gateway customer was recorded and is gone.");
      return recorded;
    },
    async forget(provider, environment, externalId) {
      await db.memberGatewayCustomer.deleteMany({
        where: { accountId, memberId, provider, environment, externalCustomerId: externalId },
      });
    },
  };
}

/**
 * At a checkout's create: the gateway customer that paid (a new reader's, made for the attempt
 * before the reader had a record) becomes the buyer's, unless one is recorded already.
 */
export async function adoptGatewayCustomer(
  tx: TransactionClient,
  args: { accountId: number; memberId: number; provider: string; environment: GatewayEnvironment; externalId: string },
): Promise<void> {
  await tx.memberGatewayCustomer.createMany({
    data: [
      {
        accountId: args.accountId,
        memberId: args.memberId,
        provider: args.provider,
        environment: args.environment,
        externalCustomerId: args.externalId,
      },
    ],
    skipDuplicates: true,
  });
}
