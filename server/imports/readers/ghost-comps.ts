/**
 * Ghost's complimentary members (docs/migration.md "Ghost members → members"): a row with
 * `complimentary_plan` true or `status` comped gets a complimentary subscription, on the plan its
 * tier maps to, so the reader keeps the access Ghost gave.
 *
 * - **Tier → plan**: the row's first tier (`tiers`, or `products` in older exports; none:
 *   "complimentary") through the plan mapping file of the subscriptions import (`--plans`,
 *   plans.ts); without `--plans`, the account's plan whose title is the tier's name. A tier
 *   neither maps: the member is imported without the subscription, and the report says why.
 * - **The subscription**: payment type `sponsored` (no payment), nothing to pay, from the member's
 *   `created_at` (or the run's time), no end: it lasts until staff end it, as in Ghost. Quiet:
 *   no e-mail, no webhook, no job.
 * - **Paid members** (`status` paid, or a `stripe_customer_id` and not comped): their access is
 *   their gateway subscription; the report says once to import it with `--from subscriptions`.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { planCopy } from "../../subscriptions/catalogue/plan-copy";
import type { ImportContext, PlanEffect } from "../types";
import { PlanResolver } from "./plans";
import { parseCsvBoolean } from "./values";

export const COMP_KIND = "subscription";

/** The tier a Ghost row names first ("complimentary" when none). */
export function tierOf(v: Record<string, string>): string {
  const tiers = (v.tiers?.trim() || v.products?.trim() || "").split(",").map((t) => t.trim());
  return tiers.find(Boolean) ?? "complimentary";
}

/** The tier of a complimentary member's row (what the plan mapping maps); null for another row or an unreadable flag. */
export function compTierOf(v: Record<string, string>): string | null {
  const complimentary = parseCsvBoolean(v.complimentary_plan);
  if (complimentary === "invalid") return null;
  return ghostStatusOf(v, complimentary === true) === "comped" ? tierOf(v) : null;
}

/** The resolver of a run: the mapping file's (--plans), or each tier to the plan titled as it. */
export function compResolver(mapping: Map<string, number | string | null> | null, name: string | null): PlanResolver {
  return new PlanResolver(mapping, name, true);
}

type CompPlan = {
  effect: PlanEffect;
  key: { kind: string; sourceId: string };
  apply: (tx: TransactionClient, memberId: number) => Promise<void>;
};

/**
 * The complimentary subscription a comped row's reader gets, or why not (a note); null for a
 * row that is not comped.
 */
export async function planComp(
  db: Db,
  ctx: ImportContext,
  args: { v: Record<string, string>; sourceId: string; createdAt: Date | null; resolver: PlanResolver; label: string },
): Promise<CompPlan | { note: string } | null> {
  const tier = tierOf(args.v);
  const mapped = await args.resolver.resolve(db, ctx.accountId, tier);
  if ("refuse" in mapped) return { note: `${args.label}: complimentary access not given: ${mapped.refuse}` };
  const { plan } = mapped;
  const key = { kind: COMP_KIND, sourceId: `comp:${args.sourceId}` };
  const start = args.createdAt && args.createdAt < ctx.now ? args.createdAt : ctx.now;
  return {
    effect: { kind: COMP_KIND, action: "create", label: `complimentary "${plan.title}" (#${plan.id}), tier ${tier}` },
    key,
    apply: async (tx, memberId) => {
      const created = await tx.subscription.create({
        data: {
          accountId: ctx.accountId,
          memberId,
          ...planCopy(plan),
          status: "ACTIVE",
          createdBy: "import",
          startTimestamp: start,
          endTimestamp: null,
          recurring: false,
          paymentType: "sponsored",
          paymentAmountCents: 0,
          paymentAmountCurrency: plan.priceCurrency,
          metadata: { imported_from: { source: "ghost-members", complimentary: true, tier } },
          createdAt: start,
        },
        select: { id: true },
      });
      await ctx.record(tx, { ...key, targetId: created.id, created: true });
    },
  };
}

/** Whether a row is comped, paid, or free, as Ghost's `status` or its columns say. */
export function ghostStatusOf(v: Record<string, string>, complimentary: boolean): "comped" | "paid" | "free" {
  const status = v.status?.trim().toLowerCase();
  if (complimentary || status === "comped") return "comped";
  if (status === "paid" || (!status && v.stripe_customer_id?.trim())) return "paid";
  return "free";
}
