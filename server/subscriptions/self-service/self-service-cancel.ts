/**
 * Cancelling on the self-service page (docs/subscriptions.md "Self-service page"): with a reason,
 * or the publisher's retention offer instead, and taking a cancel back before the period ends.
 *
 * - Cancel: one transaction stores the reason (subscription_cancellations, outcome "cancelled")
 *   and cancels through `cancelSubscription`, the client API's own cancel: the same state, audit
 *   row and `subscription.cancelled` event, whose body carries `cancellation: {reason, comment}`.
 *   Cancelling again changes nothing and stores no second reason.
 * - Offer accepted: the reason is stored too (outcome "offer_accepted", with the offer as applied:
 *   ./retention-offers.ts); the subscription is not cancelled. Once per subscription.
 * - A subscription its gateway charges by itself (Stripe, Razorpay): the gateway is told first
 *   (../recurring/gateway-sync.ts), in the same transaction; refused or unreachable, nothing changes.
 * - Undo: a cancelled (or paused) subscription whose period has not ended becomes active again
 *   with its next payment at the period end (recurring), as if never cancelled; its cancel row is
 *   marked undone and a pause's wake-up job withdrawn. `subscription.activated` is emitted with
 *   `reactivated: true`. After the end there is nothing to undo (422): the reader subscribes anew.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { cancelJob } from "../../jobs/queue";
import { GATEWAY_TX_TIMEOUT_MS, tellGateway } from "../recurring/gateway-sync";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { addDuration } from "../subscribers/subscription-state";
import { emitSubscriptionEvent, loadSubscriptionWire, notFoundSubscription } from "../subscribers/subscription-view";
import { cancelSubscription } from "../subscribers/subscriptions";
import { applyRetentionOffer, offerForSubscription, retentionJobKey, type AppliedOffer } from "./retention-offers";
import type { TSelfServiceCancelInput } from "./self-service.schema";

/** A cancel, an offer or an undo may wait for the gateway that charges the subscription (../recurring/gateway-sync.ts). */
const GATEWAY_TX = { timeout: GATEWAY_TX_TIMEOUT_MS };

type Reader = { accountId: number; memberId: number; subscriptionId: number; now: Date };

async function lockReaderSubscription(tx: TransactionClient, r: Reader) {
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM subscriptions
    WHERE id = ${r.subscriptionId} AND account_id = ${r.accountId} AND subscriber_id = ${r.memberId} AND deleted_at IS NULL
    FOR UPDATE`;
  if (!locked.length) throw notFoundSubscription();
  return tx.subscription.findUniqueOrThrow({ where: { id: r.subscriptionId } });
}

const wire = async (db: Db, r: Reader) =>
  (await loadSubscriptionWire(db, { accountId: r.accountId, id: r.subscriptionId, now: r.now }))!;

/** Cancel at period end with the reader's reason → the subscription (wire shape). */
export async function cancelWithReason(db: Db, args: Reader & { input: TSelfServiceCancelInput }) {
  return withTransaction(
    db,
    async (tx) => {
      const sub = await lockReaderSubscription(tx, args);
      const comment = args.input.comment ?? null;
      if (sub.status !== "CANCELLED")
        // Failed and expired ones are refused (422) by cancelSubscription, with the reason row rolled back.
        await tx.subscriptionCancellation.create({
          data: {
            accountId: args.accountId,
            subscriptionId: sub.id,
            memberId: args.memberId,
            reason: args.input.reason,
            comment,
            outcome: "cancelled",
            createdAt: args.now,
          },
        });
      return cancelSubscription(tx, {
        accountId: args.accountId,
        caller: { via: "client_api", memberId: args.memberId },
        id: sub.id,
        now: args.now,
        cancellation: { reason: args.input.reason, comment },
      });
    },
    GATEWAY_TX,
  );
}

/** Take the account's retention offer instead of cancelling → {subscription, offer}. */
export async function acceptRetentionOffer(db: Db, args: Reader & { input: TSelfServiceCancelInput }) {
  const applied = await withTransaction(
    db,
    async (tx) => {
      const sub = await lockReaderSubscription(tx, args);
      const offer = await offerForSubscription(tx, sub, args.now);
      if (!offer)
        throw new AppError("UNPROCESSABLE", "There is no offer for this subscription (now).", {
          details: [{ field: "subscription", issue: "has no retention offer" }],
        });
      const row = await tx.subscriptionCancellation.create({
        data: {
          accountId: args.accountId,
          subscriptionId: sub.id,
          memberId: args.memberId,
          reason: args.input.reason,
          comment: args.input.comment ?? null,
          outcome: "offer_accepted",
          createdAt: args.now,
        },
      });
      const result = await applyRetentionOffer(tx, { sub, offer, cancellationId: row.id, now: args.now });
      await tx.subscriptionCancellation.update({ where: { id: row.id }, data: { offer: result } });
      await recordAudit(tx, {
        actor: systemActor(args.accountId, "client_api"),
        action: "subscription.retention_offer.accept",
        targetType: "subscription",
        targetId: sub.id,
        metadata: { reason: args.input.reason, comment: args.input.comment ?? null, offer: result },
        now: args.now,
      });
      return result;
    },
    GATEWAY_TX,
  );
  return { subscription: await wire(db, args), offer: applied };
}

/** Take back a cancel (or a pause) before the period ends → the subscription, active again. */
export async function undoCancel(db: Db, args: Reader) {
  await withTransaction(
    db,
    async (tx) => {
      const sub = await lockReaderSubscription(tx, args);
      if (sub.status !== "CANCELLED" || sub.cancelledAt === null)
        throw new AppError("UNPROCESSABLE", "This subscription is not cancelled.", {
          details: [{ field: "subscription", issue: "is not cancelled" }],
        });
      if (sub.endTimestamp === null || sub.endTimestamp <= args.now)
        throw new AppError("UNPROCESSABLE", "The period has ended: subscribe again instead.", {
          details: [{ field: "subscription", issue: "has ended" }],
        });
      const open = await tx.subscriptionCancellation.findFirst({
        where: { subscriptionId: sub.id, undoneAt: null },
        orderBy: { id: "desc" },
      });
      const paused =
        (open?.outcome === "offer_accepted" || open?.outcome === "paused") &&
        (open.offer as AppliedOffer | null)?.kind === "pause";
      // The gateway that charges it renews again first (../recurring/gateway-sync.ts); refused: nothing changes.
      await tellGateway(tx, sub, paused ? "resume" : "undo_cancel", { now: args.now });
      const trialEnd = sub.trialEndsAt && sub.trialEndsAt > args.now ? sub.trialEndsAt : null;
      await tx.subscription.update({
        where: { id: sub.id },
        data: {
          status: "ACTIVE",
          cancelledAt: null,
          nextPaymentDueDate: sub.recurring ? (trialEnd ?? sub.endTimestamp) : null,
          // A cancel in the trial ended access with it: the period after the trial comes back.
          ...(trialEnd && sub.endTimestamp.getTime() === trialEnd.getTime()
            ? { endTimestamp: addDuration(trialEnd, sub.durationLength, sub.durationUnit) }
            : {}),
        },
      });
      if (open && (open.outcome === "cancelled" || paused))
        await tx.subscriptionCancellation.update({ where: { id: open.id }, data: { undoneAt: args.now } });
      if (paused) await cancelJob(tx, { key: retentionJobKey(sub.id), now: args.now });
      await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now: args.now });
      await recordAudit(tx, {
        actor: systemActor(args.accountId, "client_api"),
        action: "subscription.undo_cancel",
        targetType: "subscription",
        targetId: sub.id,
        metadata: { cancelled_at: sub.cancelledAt.toISOString(), paused },
        now: args.now,
      });
      await emitSubscriptionEvent(tx, {
        accountId: args.accountId,
        name: "subscription.activated",
        subscriptionId: sub.id,
        occurredAt: args.now,
        extra: { reactivated: true },
      });
    },
    GATEWAY_TX,
  );
  return wire(db, args);
}

/** The reader's open cancel or pause of a subscription (the page shows it), or null. */
export async function openCancellation(db: Db, args: { subscriptionId: number }) {
  const row = await db.subscriptionCancellation.findFirst({
    where: { subscriptionId: args.subscriptionId, undoneAt: null },
    orderBy: { id: "desc" },
  });
  return row
    ? {
        reason: row.reason,
        comment: row.comment,
        outcome: row.outcome as "cancelled" | "offer_accepted" | "paused",
        offer: (row.offer as AppliedOffer | null) ?? null,
        created_at: row.createdAt.toISOString(),
      }
    : null;
}
