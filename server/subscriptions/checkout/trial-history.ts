/**
 * One trial per reader (docs/subscriptions.md, "Trials"): whether a reader's earlier subscription
 * of the account began with a trial. The checkout's preview reads it to offer no trial
 * (pricing.ts trialTerms); its create reads it again with the reader's row locked, so two
 * checkouts of one reader at once give one trial.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { hadTrialProblem } from "./pricing";

/** When the reader's first subscription of the account that began with a trial began, or null. */
export async function earlierTrialOf(db: Db, accountId: number, memberId: number): Promise<Date | null> {
  const row = await db.subscription.findFirst({
    // A failed checkout gave no trial.
    where: { accountId, memberId, trialPeriodLength: { not: null }, status: { not: "FAILED" } },
    orderBy: { startTimestamp: "asc" },
    select: { startTimestamp: true },
  });
  return row?.startTimestamp ?? null;
}

/**
 * Before a subscription with a trial is written: the holder's row locked (the next checkout of
 * the same reader waits for this one's commit), then 422 if a trial was had meanwhile.
 */
export async function claimTheTrial(tx: TransactionClient, accountId: number, memberId: number): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM members WHERE id = ${memberId} FOR UPDATE`;
  const earlier = await earlierTrialOf(tx, accountId, memberId);
  if (earlier) {
    const problem = hadTrialProblem(earlier);
    throw new AppError("UNPROCESSABLE", `${problem.field} ${problem.issue}.`, { details: [problem] });
  }
}

/**
 * A trial's authorization charge (spec §4.2 rule 6): the payment made by the checkout of a
 * subscription that began with a trial. It is refunded, so it is neither invoiced nor revenue.
 */
export function isTrialAuthorization(
  payment: { attemptId: string | null },
  subscription: { attemptId: string | null; trialEndsAt: Date | null },
): boolean {
  return (
    subscription.trialEndsAt !== null && payment.attemptId !== null && payment.attemptId === subscription.attemptId
  );
}

/** isTrialAuthorization in SQL, over `payments p LEFT JOIN subscriptions s ON s.id = p.subscription_id`. */
export const TRIAL_AUTHORIZATION_SQL = Prisma.sql`COALESCE(s.trial_ends_at IS NOT NULL AND p.attempt_id = s.subscription_attempt_id, false)`;
