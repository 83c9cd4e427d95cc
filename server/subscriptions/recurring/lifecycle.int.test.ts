/**
 * The subscription lifecycle (lifecycle.ts) on the test clock and the real job engine: a monthly
 * recurring plan with a 7-day trial through a year of renewals, a failed charge, the grace period
 * and the expiry, every state, payment, reminder and webhook event on the way; then a step that
 * dies mid-way and steps queued or run twice.
 */
import { randomUUID } from "node:crypto";

import { afterEach, describe, expect, it } from "vitest";

import { JOBS } from "@/server/background/job-list";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { ensureRecurringJobs } from "../../jobs/engine";
import { enqueueJob } from "../../jobs/queue";
import { now, resetClock, setClock } from "../../testing/clock";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { scriptedGateway } from "../../testing/scripted-gateway";
import { insertRecurringTestSubscription, insertTestPlan } from "../../testing/subscription-fixtures";
import { addDuration, grantsAccess, subscriptionFlags } from "../subscribers/subscription-state";
import { cancelSubscription, extendSubscription } from "../subscribers/subscriptions";
import {
  advanceSubscription,
  lifecycleJobKey,
  scheduleSubscriptionLifecycle,
  sweepSubscriptionLifecycle,
} from "./lifecycle";
import { switchJobKey, switchPlanJob } from "./plan-switch-scheduled";

const PAYMENT_TYPE = "lifecycle_test";

const gateway = scriptedGateway(PAYMENT_TYPE);

afterEach(() => {
  resetClock();
  gateway.reset();
});

const deps = () => testJobDeps({ clock: now });
const at = (iso: string) => new Date(iso);

async function setup(start: Date, opts: { trialDays?: number; schedule?: boolean } = {}) {
  const db = await getDb();
  setClock(start);
  // As checkout writes a trial: the trial, then the first paid period; first payment due at the trial's end.
  const trialEndsAt = opts.trialDays ? new Date(start.getTime() + opts.trialDays * 86_400_000) : null;
  const end = addDuration(trialEndsAt ?? start, 1, "MONTHS")!;
  const { account, member, sub } = await insertRecurringTestSubscription(db, {
    paymentType: PAYMENT_TYPE,
    start,
    end,
    priceCents: 999,
  });
  await db.subscription.update({
    where: { id: sub.id },
    data: {
      trialEndsAt,
      trialPeriodLength: opts.trialDays ?? null,
      trialPeriodUnit: opts.trialDays ? "DAYS" : null,
      nextPaymentDueDate: trialEndsAt ?? end,
      paymentAmountCents: 999,
    },
  });
  if (opts.schedule !== false) await scheduleSubscriptionLifecycle(db, { subscriptionId: sub.id, now: start });
  return { db, accountId: account.id, subscriptionId: sub.id, memberId: member.id };
}

/** Move the clock to `until`, running every job of the account as it falls due, in order. */
async function runUntil(db: Db, accountId: number, until: Date) {
  for (let i = 0; i < 500; i++) {
    const next = await db.job.findFirst({
      where: { accountId, status: "PENDING", runAt: { lte: until } },
      orderBy: { runAt: "asc" },
    });
    if (!next) break;
    if (next.runAt > now()) setClock(next.runAt);
    await runJobsNow(db, deps());
  }
  setClock(until);
  await runJobsNow(db, deps());
}

async function eventsOf(db: Db, accountId: number) {
  const events = await db.webhookEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  return events.map((e) => ({ name: e.name, at: e.occurredAt.toISOString() }));
}

async function load(db: Db, id: number) {
  return db.subscription.findUniqueOrThrow({ where: { id } });
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("subscription lifecycle on the test clock", () => {
  // A year of the test clock's days, each running the lifecycle jobs: longer than 30 s on a busy machine.
  it(
    "runs a monthly plan with a 7-day trial through a year of renewals, a failed charge, the grace period and the expiry",
    { timeout: 120_000 },
    async () => {
      const start = at("2026-01-01T00:00:00.000Z");
      const { db, accountId, subscriptionId } = await setup(start, { trialDays: 7 });

      // In the trial: access, no payment yet; the reminder before the first charge went at once (7 days ahead).
      await runUntil(db, accountId, at("2026-01-07T23:00:00.000Z"));
      let sub = await load(db, subscriptionId);
      expect(subscriptionFlags(sub, now())).toMatchObject({
        active: true,
        in_trial_period: true,
        in_grace_period: false,
      });
      expect(await db.payment.count({ where: { subscriptionId } })).toBe(0);
      expect(sub.renewalReminderSentAt?.toISOString()).toBe("2026-01-01T00:00:00.000Z");

      // Trial ends 8 January: first charge; it pays the period checkout set (to 8 February).
      await runUntil(db, accountId, at("2026-01-08T00:00:00.000Z"));
      sub = await load(db, subscriptionId);
      expect(sub.endTimestamp?.toISOString()).toBe("2026-02-08T00:00:00.000Z");
      expect(sub.nextPaymentDueDate?.toISOString()).toBe("2026-02-08T00:00:00.000Z");
      expect(subscriptionFlags(sub, now()).in_trial_period).toBe(false);

      // A year: a charge on the 8th of every month, each extending the end by one month.
      for (let month = 2; month <= 12; month++) {
        const due = at(`2026-${String(month).padStart(2, "0")}-08T00:00:00.000Z`);
        await runUntil(db, accountId, due);
        sub = await load(db, subscriptionId);
        expect(sub.status).toBe("ACTIVE");
        expect(sub.endTimestamp?.toISOString()).toBe(addDuration(due, 1, "MONTHS")!.toISOString());
        expect(grantsAccess(sub, now())).toBe(true);
      }
      const payments = await db.payment.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });
      expect(payments).toHaveLength(12);
      expect(payments.every((p) => p.status === "CAPTURED" && p.amountCents === 999 && p.currency === "USD")).toBe(
        true,
      );
      expect(new Set(payments.map((p) => p.externalPaymentId)).size).toBe(12);
      expect(
        payments.map(
          (p) => (p.details as { recurring_charge: { period_start: string } }).recurring_charge.period_start,
        ),
      ).toEqual(
        Array.from({ length: 12 }, (_, i) => addDuration(at("2026-01-08T00:00:00.000Z"), i, "MONTHS")!.toISOString()),
      );
      // Each charge is invoiced when it is recorded: numbers 1..12 of the account, in charge order.
      const invoices = await db.invoice.findMany({ where: { subscriptionId }, orderBy: { sequenceNumber: "asc" } });
      expect(invoices.map((i) => [i.sequenceNumber, i.paymentId, i.amountCents, i.currency])).toEqual(
        payments.map((p, i) => [i + 1, p.id, 999, "USD"]),
      );

      // The card stops working: the 8 January 2027 charge fails, the grace period starts (7 days, access kept).
      const declineFrom = at("2027-01-08T00:00:00.000Z");
      gateway.declines = (charge) => charge.periodStart >= declineFrom;
      await runUntil(db, accountId, at("2027-01-08T00:00:00.000Z"));
      sub = await load(db, subscriptionId);
      expect(sub.status).toBe("ACTIVE");
      expect(sub.endTimestamp?.toISOString()).toBe("2027-01-08T00:00:00.000Z");
      expect(sub.graceEndsAt?.toISOString()).toBe("2027-01-15T00:00:00.000Z");
      expect(subscriptionFlags(sub, now())).toMatchObject({ active: true, in_grace_period: true, expired: false });
      await runUntil(db, accountId, at("2027-01-14T23:59:00.000Z"));
      expect((await load(db, subscriptionId)).status).toBe("ACTIVE");

      // Grace over: expired, no access, nothing more ever scheduled.
      await runUntil(db, accountId, at("2027-01-15T00:00:00.000Z"));
      sub = await load(db, subscriptionId);
      expect(sub.status).toBe("EXPIRED");
      expect(sub.nextPaymentDueDate).toBeNull();
      expect(subscriptionFlags(sub, now())).toMatchObject({ active: false, expired: true, in_grace_period: false });
      await runUntil(db, accountId, at("2027-06-01T00:00:00.000Z"));
      expect(await db.job.count({ where: { accountId, name: "subscription.lifecycle", status: "PENDING" } })).toBe(0);
      expect(await db.payment.count({ where: { subscriptionId } })).toBe(12);
      expect(await db.invoice.count({ where: { subscriptionId } })).toBe(12);
      expect(gateway.calls).toHaveLength(13);

      // Every webhook event, in order, at its time.
      const renewals = Array.from({ length: 12 }, (_, i) => ({
        name: "subscription.renewed",
        at: addDuration(at("2026-01-08T00:00:00.000Z"), i, "MONTHS")!.toISOString(),
      }));
      expect(await eventsOf(db, accountId)).toEqual([
        ...renewals,
        { name: "subscription.charge_failed", at: "2027-01-08T00:00:00.000Z" },
        { name: "subscription.grace_period_entered", at: "2027-01-08T00:00:00.000Z" },
        { name: "subscription.expired", at: "2027-01-15T00:00:00.000Z" },
      ]);
      const expired = await db.webhookEvent.findFirstOrThrow({ where: { accountId, name: "subscription.expired" } });
      expect(expired.payload).toMatchObject({ subscription: { id: subscriptionId, status: "expired", expired: true } });

      // One reminder 7 days before each charge (13), sent once each.
      const reminders = await db.outgoingEmail.findMany({
        where: { accountId, kind: "subscription.renewal_reminder" },
        orderBy: { createdAt: "asc" },
      });
      expect(reminders.map((m) => m.createdAt.toISOString())).toEqual([
        "2026-01-01T00:00:00.000Z",
        ...Array.from({ length: 12 }, (_, i) =>
          addDuration(at("2026-02-01T00:00:00.000Z"), i, "MONTHS")!.toISOString(),
        ),
      ]);
      expect(reminders[1]!.subject).toMatch(/renews on 8 Feb 2026, 00:00 UTC$/);
    },
  );

  it("applies a downgrade scheduled for the period end before that period's charge, whichever job runs first", async () => {
    for (const order of ["lifecycle first", "switch first"] as const) {
      const { db, accountId, subscriptionId } = await setup(at("2026-03-01T00:00:00.000Z"));
      const sub = await load(db, subscriptionId);
      const group = await db.subscriptionGroup.findFirstOrThrow({ where: { accountId } });
      const cheaper = await insertTestPlan(db, group, { recurring: true, priceCents: 499, priceCurrency: "USD" });
      const end = sub.endTimestamp!;
      // As a scheduled switch leaves it (plan-switch.ts): stored on the subscription, its job due at the end.
      await db.subscription.update({
        where: { id: subscriptionId },
        data: {
          scheduledPlanId: cheaper.id,
          scheduledSwitchAt: end,
          scheduledSwitch: {
            switch_type: "downgrade",
            price_cents: 499,
            currency: "USD",
            charge_cents: null,
            attempt_id: randomUUID(),
          },
        },
      });
      await enqueueJob(
        db,
        switchPlanJob,
        { subscriptionId, at: end.toISOString() },
        { key: switchJobKey(subscriptionId), runAt: end, accountId, now: now() },
      );
      // Both jobs fall due at the same moment: run the one this round names alone first.
      setClock(end);
      const first = order === "lifecycle first" ? "subscription.lifecycle" : "subscription.switch_plan";
      const firstJob = await db.job.findFirstOrThrow({ where: { accountId, name: first, status: "PENDING" } });
      await db.job.updateMany({
        where: { accountId, status: "PENDING", id: { not: firstJob.id } },
        data: { runAt: new Date(end.getTime() + 1) },
      });
      await runJobsNow(db, deps());
      await runUntil(db, accountId, new Date(end.getTime() + 60_000));

      const after = await load(db, subscriptionId);
      expect({ order, plan: after.planId, amount: after.paymentAmountCents, scheduled: after.scheduledPlanId }).toEqual(
        {
          order,
          plan: cheaper.id,
          amount: 499,
          scheduled: null,
        },
      );
      expect(after.endTimestamp?.toISOString()).toBe(addDuration(end, 1, "MONTHS")!.toISOString());
      const payments = await db.payment.findMany({ where: { subscriptionId } });
      expect(payments.map((p) => p.amountCents)).toEqual([499]);
      expect(gateway.calls.map((c) => c.amountCents)).toEqual([499]);
      gateway.reset();
    }
  });

  it("expires a one-time subscription at its end, reminding once 7 days before", async () => {
    const start = at("2026-03-01T00:00:00.000Z");
    const { db, accountId, subscriptionId } = await setup(start);
    await db.subscription.update({
      where: { id: subscriptionId },
      data: { recurring: false, nextPaymentDueDate: null },
    });
    await scheduleSubscriptionLifecycle(db, { subscriptionId, now: start });
    await runUntil(db, accountId, at("2026-04-01T00:00:00.000Z"));
    const sub = await load(db, subscriptionId);
    expect(sub.status).toBe("EXPIRED");
    expect(gateway.calls).toHaveLength(0);
    expect((await eventsOf(db, accountId)).map((e) => e.name)).toEqual(["subscription.expired"]);
    const reminders = await db.outgoingEmail.findMany({ where: { accountId, kind: "subscription.renewal_reminder" } });
    expect(reminders.map((m) => m.createdAt.toISOString())).toEqual(["2026-03-25T00:00:00.000Z"]);

    // Expired: cancelling it is refused (422), nothing changes; the publisher's extension makes it active again.
    const caller = { via: "server_api" as const, memberId: sub.memberId };
    await expect(cancelSubscription(db, { accountId, caller, id: subscriptionId, now: now() })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    const extended = await extendSubscription(db, {
      accountId,
      caller,
      id: subscriptionId,
      extendTo: "2026-05-01",
      now: now(),
    });
    expect(extended).toMatchObject({ status: "active", active: true, expired: false });
    await runUntil(db, accountId, at("2026-05-03T00:00:00.000Z"));
    expect((await load(db, subscriptionId)).status).toBe("EXPIRED");
    expect((await eventsOf(db, accountId)).map((e) => e.name)).toEqual([
      "subscription.expired",
      "subscription.expired",
    ]);
  });

  it("a step that dies after the gateway charged runs again and charges, records and renews once", async () => {
    const start = at("2026-05-01T00:00:00.000Z");
    const { db, accountId, subscriptionId } = await setup(start);
    gateway.crashOnce = true;
    await runUntil(db, accountId, at("2026-06-01T00:00:00.000Z"));
    const job = await db.job.findFirstOrThrow({
      where: {
        accountId,
        name: "subscription.lifecycle",
        key: lifecycleJobKey(subscriptionId, at("2026-06-01T00:00:00.000Z")),
      },
    });
    expect(job.lastError).toMatch(/process died/);
    expect(await db.payment.count({ where: { subscriptionId } })).toBe(0);
    // The retry (after its backoff) asks the gateway again with the same key: the same payment, once.
    await runUntil(db, accountId, at("2026-06-01T00:05:00.000Z"));
    const payments = await db.payment.findMany({ where: { subscriptionId } });
    expect(payments).toHaveLength(1);
    expect(new Set(gateway.calls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(gateway.calls.length).toBe(2);
    expect((await load(db, subscriptionId)).endTimestamp?.toISOString()).toBe("2026-07-01T00:00:00.000Z");
    expect((await eventsOf(db, accountId)).map((e) => e.name)).toEqual(["subscription.renewed"]);
  });

  it("a step queued many times is one job, and parallel runs of it change the subscription once", async () => {
    const start = at("2026-07-01T00:00:00.000Z");
    const { db, accountId, subscriptionId } = await setup(start);
    await Promise.all(
      Array.from({ length: 5 }, () => scheduleSubscriptionLifecycle(db, { subscriptionId, now: start })),
    );
    // The reminder (24 June) and nothing else is queued, once.
    expect(await db.job.count({ where: { accountId, name: "subscription.lifecycle", status: "PENDING" } })).toBe(1);
    // The reminder's moment, then the charge's: two workers and two direct calls at once each time.
    // The row lock serialises them and each rechecks the state.
    for (const moment of ["2026-07-25T00:00:00.000Z", "2026-08-01T00:00:00.000Z"]) {
      setClock(at(moment));
      await Promise.all([
        runJobsNow(db, deps(), "worker-a"),
        runJobsNow(db, deps(), "worker-b"),
        withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now: now() })),
        withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now: now() })),
      ]);
      await runJobsNow(db, deps());
    }
    expect(await db.payment.count({ where: { subscriptionId } })).toBe(1);
    expect(gateway.calls).toHaveLength(1);
    expect(await db.outgoingEmail.count({ where: { accountId, kind: "subscription.renewal_reminder" } })).toBe(1);
    expect((await eventsOf(db, accountId)).map((e) => e.name)).toEqual(["subscription.renewed"]);
    expect((await load(db, subscriptionId)).endTimestamp?.toISOString()).toBe("2026-09-01T00:00:00.000Z");
  });

  it("the sweep queues the step of a subscription nobody scheduled, once, and the engine runs it", async () => {
    const start = at("2026-09-01T00:00:00.000Z");
    const { db, accountId, subscriptionId } = await setup(start, { schedule: false });
    const pending = () => db.job.findMany({ where: { accountId, name: "subscription.lifecycle", status: "PENDING" } });
    // Nothing due within the reminder horizon yet: nothing queued.
    setClock(at("2026-09-10T00:00:00.000Z"));
    expect(await sweepSubscriptionLifecycle(db, now())).toBe(0);
    // The sweep job (recurring, every 5 minutes) on the engine finds the reminder's window and
    // queues the step (due 24 September), which the same pass runs: the reminder goes, and the
    // charge is queued for 1 October. A second sweep adds nothing.
    setClock(at("2026-09-25T00:00:00.000Z"));
    await ensureRecurringJobs(db, JOBS, now());
    await runJobsNow(db, deps());
    const ran = await db.job.findMany({ where: { accountId, name: "subscription.lifecycle", status: "SUCCEEDED" } });
    expect(ran.map((j) => j.runAt.toISOString())).toEqual(["2026-09-24T00:00:00.000Z"]);
    expect(await sweepSubscriptionLifecycle(db, now())).toBe(0);
    expect((await pending()).map((j) => j.key)).toEqual([
      lifecycleJobKey(subscriptionId, at("2026-10-01T00:00:00.000Z")),
    ]);
    expect(await db.outgoingEmail.count({ where: { accountId, kind: "subscription.renewal_reminder" } })).toBe(1);
  });
});
