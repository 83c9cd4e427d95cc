/**
 * Renewal charges that failed, for the dashboard's payment lists (a subscriber's payments, a
 * subscription's payments). A declined charge writes no `payments` row (a payment is money taken);
 * it opens a dunning episode (./dunning.ts): one per subscription and unpaid period, with the
 * amount, the retries declined since and the last error, recovered (paid later, `payment_id`) or
 * lost (the grace period ran out). So the payment lists read both: the payments, and these.
 */
import "server-only";

import type { Db } from "../../db/client";

export type FailedChargeView = {
  id: number;
  subscription_id: number;
  amount_cents: number;
  currency: string;
  /** The unpaid period's start (when the charge was due). */
  period_start: string;
  /** When the first charge of the period was declined (or the period ended unpaid). */
  failed_at: string;
  /** Retries declined after it. */
  retries: number;
  last_error: string | null;
  /** open (in its grace period), recovered (paid later: `payment_id`), lost. */
  outcome: "open" | "recovered" | "lost";
  payment_id: number | null;
};

export async function failedChargesOf(
  db: Db,
  args: { accountId: number; subscriptionIds: readonly number[] },
): Promise<FailedChargeView[]> {
  if (args.subscriptionIds.length === 0) return [];
  const rows = await db.dunningEpisode.findMany({
    where: { accountId: args.accountId, subscriptionId: { in: [...args.subscriptionIds] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  return rows.map((e) => ({
    id: e.id,
    subscription_id: e.subscriptionId,
    amount_cents: e.amountCents,
    currency: e.currency,
    period_start: e.periodStart.toISOString(),
    failed_at: e.startedAt.toISOString(),
    retries: e.retries,
    last_error: e.lastError,
    outcome: e.outcome.toLowerCase() as FailedChargeView["outcome"],
    payment_id: e.paymentId,
  }));
}
