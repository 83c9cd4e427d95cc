/**
 * The retention offer (docs/subscriptions.md "Self-service page"): what the self-service page
 * offers a reader who cancels a recurring subscription, set by revenue staff once per account.
 *
 * - "coupon": one of the account's coupons (percent or amount off) off the next `periods`
 *   charges. Accepting it lowers the subscription's payment_amount_cents (what the lifecycle
 *   charges) to the discounted amount; the job `subscription.retention_offer` puts the full amount
 *   back half a period after the last discounted charge. A plan switch meanwhile sets its own
 *   price, and the job then leaves the amount alone (it restores only the discounted amount it set).
 * - "pause": no charge and no access for `periods` periods after the paid period ends. Accepting
 *   it stops the renewal (status cancelled, no next payment: the subscription ends at its period
 *   end, the `subscription.expired` event fires then); the job wakes it at the pause's end
 *   (status active, a period due at once: the lifecycle charges it through the stored method;
 *   `subscription.activated` with `resumed_from_pause: true`).
 *   Taking the pause back before the period ends is the page's "undo". A gateway that charges the
 *   subscription by itself is told to pause collecting, and to collect again when it wakes
 *   (../recurring/gateway-sync.ts, ../recurring/gateway-resume.ts).
 * A subscription takes an offer once; the offer as applied is kept on its cancellation row.
 */
import "server-only";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { defineJob } from "../../jobs/define";
import { enqueueJob } from "../../jobs/queue";
import { parseInput } from "../../validation";
import type { Coupon, Subscription } from "../../generated/prisma/client";
import { chargesByItself } from "../payments/billing-source";
import { paymentAdapterFor } from "../payments/registry";
import { gatewayResumeJob } from "../recurring/gateway-resume";
import { collectionResumesAt, tellGateway } from "../recurring/gateway-sync";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { addDuration } from "../subscribers/subscription-state";
import { emitSubscriptionEvent } from "../subscribers/subscription-view";
import { offerInWords, type ReaderWords } from "./self-service-words";
import { CANCEL_REASONS, ZRetentionOfferInput, type TRetentionOfferInput } from "./self-service.schema";

type RetentionOfferView = {
  kind: "coupon" | "pause";
  coupon_id: number | null;
  periods: number;
  enabled: boolean;
};

/** The offer as applied to one subscription (subscription_cancellations.offer). */
export type AppliedOffer =
  | {
      kind: "coupon";
      coupon_id: number;
      code: string;
      periods: number;
      full_amount_cents: number;
      discounted_amount_cents: number;
      currency: string;
      /** When the full amount comes back (half a period after the last discounted charge). */
      until: string;
      restored_at?: string | null;
    }
  | { kind: "pause"; periods: number; paused_from: string; until: string; resumed_at?: string | null };

const badOffer = (field: string, issue: string, message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue }] });

// ─── The setting (staff) ─────────────────────────────────────────────────────────────────────

export async function getRetentionOffer(db: Db, args: { actor: Actor }): Promise<RetentionOfferView | null> {
  const row = await db.retentionOffer.findUnique({ where: { accountId: args.actor.accountId } });
  return row
    ? { kind: row.kind as "coupon" | "pause", coupon_id: row.couponId, periods: row.periods, enabled: row.enabled }
    : null;
}

export async function setRetentionOffer(
  db: Db,
  args: { actor: Actor; input: TRetentionOfferInput; now: Date },
): Promise<RetentionOfferView> {
  const input = parseInput(ZRetentionOfferInput, args.input);
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const couponId = input.kind === "coupon" ? (input.coupon_id ?? null) : null;
    if (couponId !== null) {
      const coupon = await tx.coupon.findFirst({ where: { id: couponId, accountId, deletedAt: null } });
      if (!coupon) throw badOffer("coupon_id", "is not a coupon of this account", "Choose one of your coupons.");
    }
    const data = { kind: input.kind, couponId, periods: input.periods, enabled: input.enabled };
    await tx.retentionOffer.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
    await recordAudit(tx, {
      actor: args.actor,
      action: "subscription.retention_offer.update",
      targetType: "account",
      targetId: accountId,
      metadata: { kind: data.kind, coupon_id: couponId, periods: data.periods, enabled: data.enabled },
      now: args.now,
    });
    return { kind: input.kind, coupon_id: couponId, periods: input.periods, enabled: input.enabled };
  });
}

/** Readers' recent cancels (and offers taken), newest first: what revenue staff read. */
export async function listCancellations(db: Db, args: { actor: Actor }) {
  const rows = await db.subscriptionCancellation.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: { id: "desc" },
    take: 100,
    include: { subscription: { select: { planName: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    subscription_id: r.subscriptionId,
    subscriber_id: r.memberId,
    plan_name: r.subscription.planName,
    reason: r.reason,
    reason_label: ownValue(CANCEL_REASONS, r.reason) ?? r.reason,
    comment: r.comment,
    outcome: r.outcome as "cancelled" | "offer_accepted" | "paused",
    undone: r.undoneAt !== null,
    created_at: r.createdAt.toISOString(),
  }));
}

// ─── The offer a subscription may take ───────────────────────────────────────────────────────

type OfferTerms = {
  kind: "coupon" | "pause";
  periods: number;
  coupon: Coupon | null;
  words: string;
};

/** The coupon's price for one charge, or null when it does not apply (another currency). */
function discountedAmount(coupon: Coupon, amountCents: number, currency: string): number | null {
  if (coupon.discountType === "PERCENT" && coupon.percentOff !== null)
    return Math.max(0, Math.round((amountCents * (100 - coupon.percentOff)) / 100));
  if (coupon.amountOffCents !== null && coupon.amountCurrency?.toUpperCase() === currency.toUpperCase())
    return Math.max(0, amountCents - coupon.amountOffCents);
  return null;
}

function couponUsable(coupon: Coupon, sub: Pick<Subscription, "planId" | "groupId">, now: Date): boolean {
  const plans = coupon.planIds as number[];
  const groups = coupon.groupIds as number[];
  const applies =
    (plans.length === 0 && groups.length === 0) ||
    (sub.planId !== null && plans.includes(sub.planId)) ||
    (sub.groupId !== null && groups.includes(sub.groupId));
  return (
    coupon.enabled &&
    coupon.deletedAt === null &&
    coupon.validFrom <= now &&
    (coupon.validUntil === null || coupon.validUntil > now) &&
    (coupon.maxRedemptions === null || coupon.redemptionsCount < coupon.maxRedemptions) &&
    applies
  );
}

/**
 * The account's offer for this subscription, or null: none set or turned off, the subscription
 * not a live recurring one with a next period, the coupon unusable for it (or a coupon offer on a
 * subscription its gateway charges by itself: it would charge the full price), or an offer
 * already taken by this subscription.
 */
export async function offerForSubscription(
  db: Db,
  sub: Subscription,
  now: Date,
  words?: ReaderWords,
): Promise<OfferTerms | null> {
  const offer = await db.retentionOffer.findUnique({ where: { accountId: sub.accountId } });
  if (!offer?.enabled) return null;
  if (!sub.recurring || sub.status !== "ACTIVE" || sub.cancelledAt !== null || !sub.endTimestamp) return null;
  if (sub.graceEndsAt !== null || sub.endTimestamp <= now) return null;
  const taken = await db.subscriptionCancellation.count({
    where: { subscriptionId: sub.id, outcome: "offer_accepted" },
  });
  if (taken > 0) return null;
  if (offer.kind === "pause")
    return {
      kind: "pause",
      periods: offer.periods,
      coupon: null,
      words: offerInWords(
        {
          kind: "pause",
          periods: offer.periods,
          durationLength: sub.durationLength,
          durationUnit: sub.durationUnit.toLowerCase(),
        },
        words,
      ),
    };
  // A gateway that charges each period itself would charge the full price all the same.
  if (chargesByItself(paymentAdapterFor(sub.paymentType))) return null;
  const coupon = offer.couponId ? await db.coupon.findFirst({ where: { id: offer.couponId } }) : null;
  if (!coupon || !couponUsable(coupon, sub, now)) return null;
  if (coupon.maxRedemptionsPerSubscriber !== null) {
    const used = await db.couponRedemption.count({
      where: { couponId: coupon.id, subscriberId: String(sub.memberId) },
    });
    if (used >= coupon.maxRedemptionsPerSubscriber) return null;
  }
  if (discountedAmount(coupon, sub.paymentAmountCents, sub.paymentAmountCurrency) === null) return null;
  return {
    kind: "coupon",
    periods: offer.periods,
    coupon,
    words: offerInWords(
      {
        kind: "coupon",
        periods: offer.periods,
        percentOff: coupon.discountType === "PERCENT" ? coupon.percentOff : null,
        amountOffCents: coupon.amountOffCents,
        currency: sub.paymentAmountCurrency,
      },
      words,
    ),
  };
}

/** The key of a subscription's offer job: one pending per subscription. */
export const retentionJobKey = (subscriptionId: number) => `subscription.retention_offer:${subscriptionId}`;

/**
 * Apply `offer` to the locked subscription `sub` (the caller holds its row lock, in `tx`), and
 * queue the job that ends it. Returns the offer as applied.
 */
export async function applyRetentionOffer(
  tx: TransactionClient,
  args: { sub: Subscription; offer: OfferTerms; cancellationId: number; now: Date },
): Promise<AppliedOffer> {
  const { sub, offer, now } = args;
  const due = sub.nextPaymentDueDate ?? sub.endTimestamp!;
  const unit = sub.durationUnit;
  let applied: AppliedOffer;
  let runAt: Date;
  if (offer.kind === "coupon") {
    const coupon = offer.coupon!;
    const discounted = discountedAmount(coupon, sub.paymentAmountCents, sub.paymentAmountCurrency)!;
    // The charges at due, due + 1 period, …, due + (N − 1) periods are discounted; the full
    // amount comes back half a period after the last of them, before the next.
    let last = due;
    for (let i = 1; i < offer.periods; i++) last = addDuration(last, sub.durationLength, unit) ?? last;
    const next = addDuration(last, sub.durationLength, unit) ?? last;
    runAt = new Date(last.getTime() + Math.max(60_000, (next.getTime() - last.getTime()) / 2));
    applied = {
      kind: "coupon",
      coupon_id: coupon.id,
      code: coupon.code,
      periods: offer.periods,
      full_amount_cents: sub.paymentAmountCents,
      discounted_amount_cents: discounted,
      currency: sub.paymentAmountCurrency,
      until: runAt.toISOString(),
    };
    await tx.subscription.update({ where: { id: sub.id }, data: { paymentAmountCents: discounted } });
    // A use of the coupon, as checkout counts one (its limits hold for offers too).
    await tx.coupon.update({ where: { id: coupon.id }, data: { redemptionsCount: { increment: 1 } } });
    await tx.couponRedemption.create({
      data: {
        accountId: sub.accountId,
        couponId: coupon.id,
        subscriberId: String(sub.memberId),
        subscriptionId: String(sub.id),
        redeemedAt: now,
      },
    });
  } else {
    const from = sub.endTimestamp!;
    let until = from;
    let lastPaused = from;
    for (let i = 0; i < offer.periods; i++) {
      lastPaused = until;
      until = addDuration(until, sub.durationLength, unit) ?? until;
    }
    runAt = until;
    applied = { kind: "pause", periods: offer.periods, paused_from: from.toISOString(), until: until.toISOString() };
    // The gateway that charges it stops collecting first (../recurring/gateway-sync.ts); refused: nothing changes.
    await tellGateway(tx, sub, "pause", { now, resumesAt: collectionResumesAt(until, lastPaused) });
    // No renewal: the subscription ends with its paid period, and the job wakes it at `until`.
    await tx.subscription.update({
      where: { id: sub.id },
      data: { status: "CANCELLED", cancelledAt: now, nextPaymentDueDate: null },
    });
    await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now });
  }
  await enqueueJob(
    tx,
    retentionOfferJob,
    { subscriptionId: sub.id, cancellationId: args.cancellationId },
    { key: retentionJobKey(sub.id), onConflict: "replace", runAt, accountId: sub.accountId, now },
  );
  return applied;
}

// ─── The job that ends an offer ──────────────────────────────────────────────────────────────

/** End the offer of a cancellation row: restore the full amount, or wake a paused subscription. */
export async function endRetentionOffer(
  tx: TransactionClient,
  args: { subscriptionId: number; cancellationId: number; now: Date },
): Promise<"restored" | "resumed" | "nothing"> {
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${args.subscriptionId} FOR UPDATE`;
  const row = await tx.subscriptionCancellation.findFirst({
    where: {
      id: args.cancellationId,
      subscriptionId: args.subscriptionId,
      outcome: { in: ["offer_accepted", "paused"] },
      undoneAt: null,
    },
  });
  const sub = await tx.subscription.findUnique({ where: { id: args.subscriptionId } });
  const offer = row?.offer as AppliedOffer | null | undefined;
  if (!row || !sub || !offer || sub.deletedAt) return "nothing";
  const iso = args.now.toISOString();
  if (offer.kind === "coupon") {
    if (offer.restored_at) return "nothing";
    if (sub.paymentAmountCents === offer.discounted_amount_cents)
      await tx.subscription.update({ where: { id: sub.id }, data: { paymentAmountCents: offer.full_amount_cents } });
    await tx.subscriptionCancellation.update({
      where: { id: row.id },
      data: { offer: { ...offer, restored_at: iso } },
    });
    return "restored";
  }
  if (offer.resumed_at) return "nothing";
  await tx.subscriptionCancellation.update({ where: { id: row.id }, data: { offer: { ...offer, resumed_at: iso } } });
  // Woken only from the pause it took: a subscription reactivated, deleted, or ended by its
  // gateway meanwhile (its subscription there cancelled) stays.
  if (sub.status !== "EXPIRED" && !(sub.status === "CANCELLED" && sub.cancelledAt !== null)) return "nothing";
  if (sub.gatewayState === "ended") return "nothing";
  await tx.subscription.update({
    where: { id: sub.id },
    data: {
      status: "ACTIVE",
      cancelledAt: null,
      endTimestamp: args.now,
      nextPaymentDueDate: args.now,
      graceEndsAt: null,
      renewalReminderSentAt: null,
    },
  });
  await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now: args.now });
  // The gateway that charges it by itself collects again (../recurring/gateway-resume.ts).
  if (sub.gatewayState === "paused")
    await enqueueJob(tx, gatewayResumeJob, { subscriptionId: sub.id }, { accountId: sub.accountId, now: args.now });
  await emitSubscriptionEvent(tx, {
    accountId: sub.accountId,
    name: "subscription.activated",
    subscriptionId: sub.id,
    occurredAt: args.now,
    extra: { resumed_from_pause: true },
  });
  return "resumed";
}

/** "subscription.retention_offer": end an accepted offer at its time (./retention-offers.ts). */
export const retentionOfferJob = defineJob<{ subscriptionId: number; cancellationId: number }>({
  name: "subscription.retention_offer",
  kind: "transactional",
  payload: z.object({ subscriptionId: z.number().int().positive(), cancellationId: z.number().int().positive() }),
  leaseMs: 15_000,
  maxAttempts: 10,
  concurrency: 5,
  async run(tx, job, ctx) {
    await endRetentionOffer(tx, { ...job.payload, now: ctx.clock() });
  },
});
