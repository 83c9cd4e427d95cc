/**
 * A paid Ghost member's Stripe subscriptions, read from Stripe itself (docs/migration.md "Ghost
 * members → members"), as Ghost's own importer links a member's `stripe_customer_id`: when the
 * account has its Stripe keys saved, each subscription of the member's Stripe customer (every
 * status Stripe reports) is planned as the subscriptions import plans a row of Stripe's export
 * (subscriptions.ts planImportedSubscription): payment type `stripe_recurring` on a recurring
 * plan, the Stripe subscription id where Stripe's webhooks find it, quiet.
 *
 * - **Plan**: the Stripe price through the run's plan mapping (`--plans`, the same file the
 *   subscriptions import takes, keyed by price id), else the member's Ghost tier as for
 *   complimentary members (mapped, or the plan titled as the tier). Neither: not linked, said.
 * - **Once**: recorded under `stripe:<subscription id>`, the key Stripe's export gives it too; a
 *   subscription Masthead already has (by that key or its gateway subscription) is left alone.
 * - Stripe unreachable or refusing the key: the member's row is refused with Stripe's words, so
 *   running the import again links it. Without Stripe keys nothing is asked of Stripe, and the
 *   report says to import Stripe's subscriptions export instead.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { PaymentAdapterError, type GatewayCredentials } from "../../subscriptions/payments/adapter";
import { gatewayCredentialsFor } from "../../subscriptions/payments/credentials";
import type { GatewaySubscriptionRecord } from "../../subscriptions/payments/gateway-records";
import { paymentAdapterForProvider } from "../../subscriptions/payments/registry";
import type { ImportContext, PlanEffect } from "../types";
import type { PlanResolver } from "./plans";
import { planImportedSubscription, type ImportedSubscription } from "./subscriptions";

const STRIPE = "stripe";
const SUBSCRIPTION_KIND = "subscription";

type Key = { kind: string; sourceId: string };

/** What linking a member's Stripe customer adds to the member's row. */
type StripeLink = {
  effects: PlanEffect[];
  keys: Key[];
  apply: (tx: TransactionClient, memberId: number) => Promise<void>;
};

/** A Stripe subscription as a row of the subscriptions import (null-prototype: Stripe's words are data). */
function rowOf(r: GatewaySubscriptionRecord): Record<string, string> {
  const v = Object.create(null) as Record<string, string>;
  Object.assign(v, {
    gateway: STRIPE,
    gateway_customer_id: r.customerId,
    gateway_subscription_id: r.id,
    plan: r.planRef ?? "",
    status: r.status,
    current_period_end: r.currentPeriodEnd?.toISOString() ?? "",
    cancel_at_period_end: String(r.cancelAtPeriodEnd),
    started_at: r.startedAt.toISOString(),
    currency: r.currency,
    quantity: String(r.quantity),
    ...(r.unitAmountCents !== null ? { amount_cents: String(r.unitAmountCents) } : {}),
  });
  return v;
}

/**
 * The linker of one run: asks the database for the account's Stripe keys once, then Stripe for
 * each paid member's customer. `linking` answers whether it will ask Stripe at all.
 */
export function ghostStripeLinker(resolver: PlanResolver, noted: Set<string>) {
  const adapter = paymentAdapterForProvider(STRIPE);
  let creds: Promise<GatewayCredentials | null> | undefined;
  const credsOf = (db: Db, accountId: number) => (creds ??= gatewayCredentialsFor(db, accountId, STRIPE));

  return {
    async linking(db: Db, ctx: ImportContext): Promise<boolean> {
      return adapter?.customerSubscriptions !== undefined && (await credsOf(db, ctx.accountId)) !== null;
    },

    /** The member's Stripe subscriptions to link, a refusal of the row (Stripe not reached), or null (no link). */
    async link(
      db: Db,
      ctx: ImportContext,
      args: { customer: string; tier: string; label: string },
    ): Promise<StripeLink | { refuse: string } | null> {
      const keys = await credsOf(db, ctx.accountId);
      if (!keys || !adapter?.customerSubscriptions) return null;
      let records: GatewaySubscriptionRecord[];
      try {
        records = await adapter.customerSubscriptions(keys, args.customer);
      } catch (error) {
        if (!(error instanceof PaymentAdapterError)) throw error;
        return {
          refuse: `its Stripe customer ${args.customer} could not be read at Stripe (${error.message}): import the file again to link it`,
        };
      }
      const planned: (ImportedSubscription & { key: Key })[] = [];
      for (const record of records) {
        const key = { kind: SUBSCRIPTION_KIND, sourceId: `${STRIPE}:${record.id}` };
        if ((await ctx.lookup(db, key)) !== null) continue;
        const byPrice = record.planRef ? await resolver.resolve(db, ctx.accountId, record.planRef) : null;
        const mapped = byPrice && "plan" in byPrice ? byPrice : await resolver.resolve(db, ctx.accountId, args.tier);
        if ("refuse" in mapped) {
          ctx.note(`${args.label}: Stripe subscription ${record.id} not linked: ${mapped.refuse}`);
          continue;
        }
        const one = await planImportedSubscription(db, ctx, {
          v: rowOf(record),
          plan: mapped.plan,
          key,
          label: args.label,
          noted,
          source: "ghost-members",
        });
        if ("refuse" in one) ctx.note(`${args.label}: Stripe subscription ${record.id} not linked: ${one.refuse}`);
        else if (!("skip" in one)) planned.push({ ...one, key });
      }
      return {
        effects: planned.map((p) => ({ kind: SUBSCRIPTION_KIND, action: "create" as const, label: p.label })),
        keys: planned.map((p) => p.key),
        apply: async (tx, memberId) => {
          for (const p of planned) await p.apply(tx, memberId);
        },
      };
    },
  };
}
