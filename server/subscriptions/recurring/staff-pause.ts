/**
 * Revenue staff pause a subscription (the Subscriptions page): the same pause as the retention
 * offer's (../self-service/retention-offers.ts applyRetentionOffer), for any live recurring subscription — no
 * renewal at the paid period's end, no access during the pause, the subscription resumes and is
 * charged when it ends. Kept as a subscription_cancellations row with the outcome "paused" (the
 * retention page lists it; the reader's self-service page can take it back before the period
 * ends), audited `subscription.pause`. The gateway that charges it by itself is told first.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { applyRetentionOffer, type AppliedOffer } from "../self-service/retention-offers";
import type { TStaffPauseInput } from "../subscribers/subscription-actions.schema";
import { GATEWAY_TX_TIMEOUT_MS } from "./gateway-sync";

export async function pauseSubscriptionForStaff(
  db: Db,
  args: { actor: StaffActor; input: TStaffPauseInput; now: Date },
): Promise<AppliedOffer> {
  const { actor, input, now } = args;
  return withTransaction(
    db,
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${input.id} AND account_id = ${actor.accountId} FOR UPDATE`;
      const sub = await tx.subscription.findFirst({
        where: { id: input.id, accountId: actor.accountId, deletedAt: null },
      });
      if (!sub) throw new AppError("NOT_FOUND", "No such subscription.");
      const live =
        sub.recurring &&
        sub.status === "ACTIVE" &&
        sub.cancelledAt === null &&
        sub.graceEndsAt === null &&
        sub.endTimestamp !== null &&
        sub.endTimestamp > now;
      if (!live)
        throw new AppError(
          "UNPROCESSABLE",
          "Only a recurring subscription that is active, not cancelling and not in its grace period can be paused.",
          { details: [{ field: "id", issue: "is not a live recurring subscription" }] },
        );
      const row = await tx.subscriptionCancellation.create({
        data: {
          accountId: actor.accountId,
          subscriptionId: sub.id,
          memberId: sub.memberId,
          reason: "temporary",
          comment: null,
          outcome: "paused",
          createdAt: now,
        },
      });
      const applied = await applyRetentionOffer(tx, {
        sub,
        offer: { kind: "pause", periods: input.periods, coupon: null, words: "" },
        cancellationId: row.id,
        now,
      });
      await tx.subscriptionCancellation.update({ where: { id: row.id }, data: { offer: applied } });
      await recordAudit(tx, {
        actor,
        action: "subscription.pause",
        targetType: "subscription",
        targetId: sub.id,
        metadata: {
          periods: input.periods,
          paused_from: applied.kind === "pause" ? applied.paused_from : null,
          until: applied.until,
        },
        now,
      });
      return applied;
    },
    { timeout: GATEWAY_TX_TIMEOUT_MS },
  );
}
