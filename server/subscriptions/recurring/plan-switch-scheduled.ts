/**
 * A plan switch that waits (./plan-switch.ts): stored on the subscription (scheduled_plan_id,
 * scheduled_switch_at, scheduled_switch) and applied at its time by the job
 * `subscription.switch_plan` (keyed per subscription: a second switch replaces the first) or by
 * the lifecycle before its step at the same time (./lifecycle.ts), whichever runs first.
 */
import "server-only";

import { z } from "zod";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { defineJob } from "../../jobs/define";
import { enqueueJob } from "../../jobs/queue";
import { addDuration } from "../subscribers/subscription-state";
import type { SwitchType } from "./plan-switch-proration";

export const switchJobKey = (subscriptionId: number) => `subscription.switch_plan:${subscriptionId}`;

/** The scheduled switch as stored on the subscription (scheduled_switch). */
type ScheduledSwitch = {
  switch_type: SwitchType;
  price_cents: number;
  currency: string;
  charge_cents: number | null;
  attempt_id: string;
};

/** Give the subscription the target plan (its copy, price) and, for a new period, start and end. */
export async function switchTo(
  tx: TransactionClient,
  args: {
    subscriptionId: number;
    target: {
      id: number;
      title: string;
      description: string;
      durationLength: number;
      durationUnit: Prisma.SubscriptionPlanGetPayload<object>["durationUnit"];
    };
    priceCents: number;
    paidCents: number | null;
    from: Date;
    newPeriod: boolean;
    paymentToken?: string | null;
  },
) {
  const { target } = args;
  await tx.subscription.update({
    where: { id: args.subscriptionId },
    data: {
      planId: target.id,
      planName: target.title,
      planDescription: target.description,
      durationLength: target.durationLength,
      durationUnit: target.durationUnit,
      planAmountCents: args.priceCents,
      ...(args.paidCents !== null ? { paymentAmountCents: args.paidCents } : {}),
      ...(args.paymentToken ? { paymentToken: args.paymentToken } : {}),
      ...(args.newPeriod
        ? {
            startTimestamp: args.from,
            endTimestamp: addDuration(args.from, target.durationLength, target.durationUnit),
          }
        : {}),
      scheduledPlanId: null,
      scheduledSwitchAt: null,
      scheduledSwitch: Prisma.DbNull,
    },
  });
}

/**
 * Store a switch that waits on the subscription and queue its job (keyed per subscription: a
 * second switch replaces the first), in the confirm's transaction.
 */
export async function scheduleSwitch(
  tx: TransactionClient,
  args: {
    subscriptionId: number;
    accountId: number;
    targetPlanId: number;
    at: Date;
    frozen: ScheduledSwitch;
    now: Date;
  },
) {
  const { subscriptionId, at } = args;
  await tx.subscription.update({
    where: { id: subscriptionId },
    data: { scheduledPlanId: args.targetPlanId, scheduledSwitchAt: at, scheduledSwitch: args.frozen },
  });
  await enqueueJob(
    tx,
    switchPlanJob,
    { subscriptionId, at: at.toISOString() },
    { key: switchJobKey(subscriptionId), onConflict: "replace", runAt: at, accountId: args.accountId, now: args.now },
  );
}

/**
 * "subscription.switch_plan": apply a scheduled switch at its time. A subscription changed since
 * (the switch replaced or withdrawn, the subscription no longer active) is left as it is.
 */
export const switchPlanJob = defineJob<{ subscriptionId: number; at: string }>({
  name: "subscription.switch_plan",
  kind: "transactional",
  payload: z.object({ subscriptionId: z.number().int().positive(), at: z.iso.datetime() }),
  leaseMs: 15_000,
  maxAttempts: 10,
  concurrency: 5,
  async run(tx, job, ctx) {
    const at = new Date(job.payload.at);
    if (ctx.clock() < at) return { status: "retry", at };
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${job.payload.subscriptionId} FOR UPDATE`;
    await applyDueScheduledSwitch(tx, { subscriptionId: job.payload.subscriptionId, now: ctx.clock(), at });
  },
});

/**
 * Apply the subscription's scheduled switch when it is due by `now` (and, given `at`, only the
 * switch scheduled for that time); the caller holds the subscription's row lock. Called by the
 * switch's job and by the lifecycle before a step (lifecycle.ts), so whichever runs first at the
 * period end, a recurring subscription's next charge is the target plan's price and a one-time
 * one starts its prepaid new period instead of expiring. A subscription changed since (the
 * switch withdrawn, the subscription no longer active) has the switch dropped. Returns whether a
 * switch was applied.
 */
export async function applyDueScheduledSwitch(
  tx: TransactionClient,
  args: { subscriptionId: number; now: Date; at?: Date },
): Promise<boolean> {
  const sub = await tx.subscription.findUnique({ where: { id: args.subscriptionId } });
  const due = sub?.scheduledSwitchAt;
  if (!sub || !due || sub.scheduledPlanId === null || due > args.now) return false;
  if (args.at && due.getTime() !== args.at.getTime()) return false;
  const frozen = sub.scheduledSwitch as ScheduledSwitch | null;
  const target = await tx.subscriptionPlan.findUnique({ where: { id: sub.scheduledPlanId } });
  if (!frozen || !target || sub.status !== "ACTIVE" || sub.deletedAt) {
    await tx.subscription.update({
      where: { id: sub.id },
      data: { scheduledPlanId: null, scheduledSwitchAt: null, scheduledSwitch: Prisma.DbNull },
    });
    return false;
  }
  // One-time: the prepaid target starts a new period at the old end. Recurring: the plan copy and
  // the amount charged each period change; the lifecycle's next charge (at this time) is the target's.
  await switchTo(tx, {
    subscriptionId: sub.id,
    target,
    priceCents: frozen.price_cents,
    paidCents: sub.recurring ? frozen.price_cents : frozen.charge_cents,
    from: due,
    newPeriod: !sub.recurring,
  });
  await recordAudit(tx, {
    actor: systemActor(sub.accountId, "scheduler"),
    action: "subscription.switch_plan",
    targetType: "subscription",
    targetId: sub.id,
    metadata: {
      from_plan_id: sub.planId,
      to_plan_id: target.id,
      switch_type: frozen.switch_type,
      scheduled: true,
      applies_at: due.toISOString(),
    },
    now: args.now,
  });
  return true;
}

/** The pending scheduled switch of a subscription, for GET …/subscriptions/<id> (null: none). */
export async function scheduledSwitchOf(db: Db, args: { accountId: number; subscriptionId: number }) {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId },
    select: {
      scheduledPlanId: true,
      scheduledSwitchAt: true,
      scheduledSwitch: true,
      group: { select: { prorationEnabled: true } },
    },
  });
  if (!sub) return { proration_enabled: true, scheduled_switch: null };
  const frozen = sub.scheduledSwitch as ScheduledSwitch | null;
  const plan =
    sub.scheduledPlanId === null
      ? null
      : await db.subscriptionPlan.findUnique({ where: { id: sub.scheduledPlanId }, select: { title: true } });
  return {
    proration_enabled: sub.group?.prorationEnabled ?? true,
    scheduled_switch:
      sub.scheduledPlanId !== null && sub.scheduledSwitchAt && frozen
        ? {
            subscription_plan_id: sub.scheduledPlanId,
            plan_name: plan?.title ?? null,
            switch_type: frozen.switch_type,
            scheduled_at: sub.scheduledSwitchAt.toISOString(),
            price_cents: frozen.price_cents,
            currency: frozen.currency,
            paid_cents: frozen.charge_cents,
          }
        : null,
  };
}
