/**
 * recurring_subscription_updated: a gateway that charges a subscription by itself reports its
 * subscription's state (Stripe's customer.subscription.updated — the Customer Portal, Stripe's
 * dashboard, or Masthead's own change coming back —, Razorpay's subscription.paused/resumed), and
 * Masthead follows (docs/subscriptions.md "Gateway recurring events"). A card change the same
 * event names is stored first (recurring-events.ts settlePaymentMethodUpdate).
 *
 * - Stale: an event made before Masthead's last word on the subscription (`gateway_state_at`:
 *   what Masthead told the gateway, or the last event followed) changes nothing, so an older
 *   event delivered late cannot undo a newer state. Events are idempotent per event id anyway
 *   (gateway_events), and a state already held changes nothing: Masthead's own change coming
 *   back emits nothing and mails nobody.
 * - cancelling (Stripe's cancel_at_period_end): a live subscription is cancelled at its period
 *   end, as a reader's cancel is (audit `subscription.cancel` via "gateway", `subscription.cancelled`).
 * - active: a cancelling one whose period has not ended is active again (`subscription.activated`,
 *   `reactivated: true`); a paused one resumes: before its period's end as the undo does, after it
 *   woken now (`resumed_from_pause: true`), its next period due (the gateway charges it).
 * - paused, with a resume date (Stripe's `pause_collection.resumes_at`): Masthead's own pause after
 *   the paid period, until the first period end at or after that date (a cancellation row
 *   "paused", the wake-up job); with none (Razorpay's pauses, Stripe's open-ended ones): the
 *   renewal stops (stored cancelled, access to the period's end) until the gateway resumes it.
 *   Audited `subscription.pause` via "gateway"; no event, as a staff pause emits none.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { TransactionClient } from "../../db/client";
import type { Subscription } from "../../generated/prisma/client";
import { cancelJob, enqueueJob } from "../../jobs/queue";
import { recordGatewayState } from "../recurring/gateway-sync";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { retentionJobKey, retentionOfferJob, type AppliedOffer } from "../self-service/retention-offers";
import { addDuration } from "../subscribers/subscription-state";
import { emitSubscriptionEvent } from "../subscribers/subscription-view";
import { markCancelled } from "../subscribers/subscriptions";
import type { GatewayEventDetails, PaymentAdapter } from "./adapter";
import { findSubscriptionId, lockSubscription, settlePaymentMethodUpdate } from "./recurring-events";

type Outcome = { status: "processed" | "ignored" | "failed"; reason: string | null };
type Args = { accountId: number; adapter: PaymentAdapter; details: GatewayEventDetails; now: Date };

/** At most this many periods are counted to reach a gateway pause's resume date. */
const MAX_PAUSE_PERIODS = 60;

export async function settleGatewaySubscriptionUpdate(tx: TransactionClient, args: Args): Promise<Outcome> {
  const method = args.details.paymentMethod ? await settlePaymentMethodUpdate(tx, args) : null;
  const state = args.details.gatewaySubscription;
  if (!state || state.state === "other" || state.state === "ended")
    return method ?? { status: "ignored", reason: "The event names no state Masthead follows." };
  const followed = await followState(tx, args, state);
  if (method?.status === "processed" && method.reason === null && followed.status !== "processed")
    return { status: "processed", reason: `Payment method stored. ${followed.reason ?? ""}`.trim() };
  return followed;
}

async function followState(
  tx: TransactionClient,
  args: Args,
  state: NonNullable<GatewayEventDetails["gatewaySubscription"]>,
): Promise<Outcome> {
  const { accountId, details, now } = args;
  const subscriptionId = await findSubscriptionId(tx, args);
  if (subscriptionId === null)
    return { status: "ignored", reason: "No subscription of ours has this gateway subscription." };
  const sub = await lockSubscription(tx, subscriptionId);
  // Stored as JSON with the event (gateway_events.payload): dates come back as ISO strings.
  const at = details.occurredAt ? new Date(details.occurredAt) : now;
  const resumesAt = state.resumesAt ? new Date(state.resumesAt) : null;
  if (sub.gatewayStateAt && at < sub.gatewayStateAt)
    return {
      status: "ignored",
      reason: `An older state (${at.toISOString()}) than Masthead's last word on the subscription (${sub.gatewayStateAt.toISOString()}).`,
    };
  if (!sub.recurring || sub.status === "PENDING" || sub.status === "FAILED")
    return { status: "ignored", reason: `The subscription is ${sub.status.toLowerCase()}: nothing to follow.` };
  const pause = await openPause(tx, sub.id);
  const live = sub.status === "ACTIVE" && sub.cancelledAt === null;
  const paused = !live && (pause !== null || sub.gatewayState === "paused");
  const actor = systemActor(accountId, "payment_gateway");
  const done = async (reason: string | null): Promise<Outcome> => {
    await recordGatewayState(tx, sub.id, state.state as "active" | "cancelling" | "paused", at);
    return { status: "processed", reason };
  };

  if (state.state === "cancelling") {
    if (!live) return done("The subscription already does not renew.");
    await markCancelled(tx, sub, { actor, via: "gateway", endsNow: false, now });
    await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
    return done(null);
  }

  if (state.state === "paused") {
    if (!live) return done("The subscription already does not renew.");
    if (sub.endTimestamp === null)
      return { status: "ignored", reason: "The subscription has no period to pause after." };
    const until = resumesAt ? pauseEnd(sub, resumesAt) : null;
    await tx.subscription.update({
      where: { id: sub.id },
      data: { status: "CANCELLED", cancelledAt: now, nextPaymentDueDate: null },
    });
    if (until) {
      const row = await tx.subscriptionCancellation.create({
        data: {
          accountId,
          subscriptionId: sub.id,
          memberId: sub.memberId,
          reason: "temporary",
          comment: null,
          outcome: "paused",
          createdAt: now,
          offer: {
            kind: "pause",
            periods: until.periods,
            paused_from: sub.endTimestamp.toISOString(),
            until: until.at.toISOString(),
          } satisfies AppliedOffer,
        },
      });
      await enqueueJob(
        tx,
        retentionOfferJob,
        { subscriptionId: sub.id, cancellationId: row.id },
        { key: retentionJobKey(sub.id), onConflict: "replace", runAt: until.at, accountId, now },
      );
    }
    await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
    await recordAudit(tx, {
      actor,
      action: "subscription.pause",
      targetType: "subscription",
      targetId: sub.id,
      metadata: {
        via: "gateway",
        event: details.event,
        paused_from: sub.endTimestamp.toISOString(),
        until: until?.at.toISOString() ?? null,
      },
      now,
    });
    return done(null);
  }

  // active: renewing again at the gateway.
  if (live) return done("The subscription already renews.");
  if (sub.status === "EXPIRED" && !paused)
    return { status: "ignored", reason: "The subscription has ended: a renewal at the gateway is not followed." };
  const beforeEnd = sub.endTimestamp !== null && sub.endTimestamp > now;
  const trialEnd = sub.trialEndsAt && sub.trialEndsAt > now ? sub.trialEndsAt : null;
  await tx.subscription.update({
    where: { id: sub.id },
    data: beforeEnd
      ? {
          status: "ACTIVE",
          cancelledAt: null,
          nextPaymentDueDate: trialEnd ?? sub.endTimestamp,
          // A cancel in the trial ended access with it: the period after the trial comes back.
          ...(trialEnd && sub.endTimestamp!.getTime() === trialEnd.getTime()
            ? { endTimestamp: addDuration(trialEnd, sub.durationLength, sub.durationUnit) }
            : {}),
        }
      : {
          status: "ACTIVE",
          cancelledAt: null,
          endTimestamp: now,
          nextPaymentDueDate: now,
          graceEndsAt: null,
          renewalReminderSentAt: null,
        },
  });
  const open = await tx.subscriptionCancellation.findFirst({
    where: { subscriptionId: sub.id, undoneAt: null },
    orderBy: { id: "desc" },
  });
  if (open && (open.outcome === "cancelled" || pause?.id === open.id))
    await tx.subscriptionCancellation.update({
      where: { id: open.id },
      data: beforeEnd
        ? { undoneAt: now }
        : { offer: { ...(open.offer as AppliedOffer), resumed_at: now.toISOString() } },
    });
  if (pause) await cancelJob(tx, { key: retentionJobKey(sub.id), now });
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
  await recordAudit(tx, {
    actor,
    action: paused ? "subscription.resume" : "subscription.undo_cancel",
    targetType: "subscription",
    targetId: sub.id,
    metadata: { via: "gateway", event: details.event, cancelled_at: sub.cancelledAt?.toISOString() ?? null },
    now,
  });
  await emitSubscriptionEvent(tx, {
    accountId,
    name: "subscription.activated",
    subscriptionId: sub.id,
    occurredAt: now,
    extra: beforeEnd ? { reactivated: true } : { resumed_from_pause: true },
  });
  return done(null);
}

/** The subscription's open pause (its latest cancellation row, not undone, a pause not resumed), or null. */
async function openPause(tx: TransactionClient, subscriptionId: number) {
  const row = await tx.subscriptionCancellation.findFirst({
    where: { subscriptionId, undoneAt: null },
    orderBy: { id: "desc" },
  });
  const offer = row?.offer as AppliedOffer | null | undefined;
  return row && offer?.kind === "pause" && !offer.resumed_at ? row : null;
}

/** A gateway pause resuming at `resumesAt` in Masthead's periods: the first period end at or after it. */
function pauseEnd(sub: Subscription, resumesAt: Date): { at: Date; periods: number } {
  let at = sub.endTimestamp!;
  let periods = 0;
  while (periods < 1 || (at < resumesAt && periods < MAX_PAUSE_PERIODS)) {
    at = addDuration(at, sub.durationLength, sub.durationUnit) ?? at;
    periods++;
  }
  return { at, periods };
}
