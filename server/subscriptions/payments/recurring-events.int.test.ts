/**
 * Razorpay's recurring webhooks (subscription.charged, .pending, .halted/.cancelled) through
 * receiveGatewayWebhook and the real job engine, on the test clock: duplicates, events out of
 * order, a bad signature, the same payment processed by two workers at once, the wait for the
 * gateway's word at a period's end (no false "payment failed" mail when its charge comes a little
 * late), and the grace period when its charge fails or does not come.
 */
import { afterEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { now, resetClock, setClock } from "../../testing/clock";
import { razorpayStandIn } from "../../testing/gateway-checkout";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "../../testing/subscription-fixtures";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { resolveSubscriber } from "../subscribers/subscribers";
import { receiveGatewayWebhook } from "./gateway-events";

const razorpayAccount = razorpayStandIn();
afterEach(() => resetClock());

const at = (iso: string) => new Date(iso);
const deps = () => testJobDeps({ clock: now });
const AMOUNT = 49900;

/** An account with Razorpay, and an active razorpay_recurring subscription (1 Jan → 1 Feb 2026) whose first payment checkout recorded. */
async function setup() {
  const db = await getDb();
  setClock(at("2026-01-01T00:00:00.000Z"));
  const { fx, accountId } = await razorpayAccount(db);
  const group = await insertTestGroup(db, accountId);
  const plan = await insertTestPlan(db, group, { recurring: true, priceCents: AMOUNT, priceCurrency: "INR" });
  const member = await resolveSubscriber(db, {
    accountId,
    provider: "email",
    identity: "recurring-reader@example.com",
    create: true,
    now: now(),
  });
  const gatewaySub = `sub_${Math.random().toString(36).slice(2, 16)}`;
  const sub = await insertTestSubscription(db, {
    accountId,
    memberId: member!.id,
    planId: plan.id,
    start: now(),
    paymentType: "razorpay_recurring",
    recurring: true,
  });
  await db.subscription.update({ where: { id: sub.id }, data: { paymentToken: gatewaySub } });
  const first = fx.pay({ subscriptionId: gatewaySub, amount: AMOUNT, currency: "INR" }).payment;
  await db.payment.create({
    data: {
      accountId,
      subscriptionId: sub.id,
      paymentType: "razorpay_recurring",
      externalPaymentId: first.id as string,
      externalOrderId: gatewaySub,
      amountCents: AMOUNT,
      currency: "INR",
      status: "CAPTURED",
    },
  });
  await scheduleSubscriptionLifecycle(db, { subscriptionId: sub.id, now: now() });
  return { db, fx, accountId, subscriptionId: sub.id, gatewaySub, firstPaymentId: first.id as string };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

function chargedHook(ctx: Ctx, eventId?: string, payment?: Record<string, unknown>) {
  const p = payment ?? ctx.fx.pay({ subscriptionId: ctx.gatewaySub, amount: AMOUNT, currency: "INR" }).payment;
  const hook = ctx.fx.webhook(
    "subscription.charged",
    { subscription: { id: ctx.gatewaySub, entity: "subscription", status: "active", notes: [] }, payment: p },
    eventId,
  );
  return { hook, payment: p };
}

function cancelHook(ctx: Ctx, event: "subscription.cancelled" | "subscription.halted" | "subscription.pending") {
  return ctx.fx.webhook(event, {
    subscription: { id: ctx.gatewaySub, entity: "subscription", status: event.split(".")[1], notes: [] },
  });
}

function receive(db: Db, accountId: number, hook: { body: string; headers: Record<string, string> }) {
  return receiveGatewayWebhook(db, {
    provider: "razorpay",
    accountId,
    headers: new Headers(hook.headers),
    rawBody: hook.body,
    now: now(),
  });
}

async function state(ctx: Ctx) {
  const sub = await ctx.db.subscription.findUniqueOrThrow({ where: { id: ctx.subscriptionId } });
  const events = await ctx.db.webhookEvent.findMany({ where: { accountId: ctx.accountId }, orderBy: { id: "asc" } });
  return {
    status: sub.status,
    end: sub.endTimestamp?.toISOString() ?? null,
    cancelled: sub.cancelledAt !== null,
    grace: sub.graceEndsAt?.toISOString() ?? null,
    payments: await ctx.db.payment.count({ where: { subscriptionId: ctx.subscriptionId } }),
    events: events.map((e) => e.name),
    mails: await ctx.db.outgoingEmail.count({
      where: { accountId: ctx.accountId, kind: "subscription.payment_failed" },
    }),
  };
}

describe("recurring gateway events", () => {
  it("counts each charge once whatever the order, and ignores repeats of an event or of a payment", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    // The charge of the first period is the payment checkout recorded: nothing changes.
    expect(
      (await receive(db, accountId, chargedHook(ctx, undefined, { ...ctx.fx.payments.get(ctx.firstPaymentId)! }).hook))
        .status,
    ).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ end: "2026-02-01T00:00:00.000Z", payments: 1, events: [] });

    // Period 3's charge arrives before period 2's.
    const third = chargedHook(ctx, "evt_period_3");
    const second = chargedHook(ctx, "evt_period_2");
    expect((await receive(db, accountId, third.hook)).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ end: "2026-03-01T00:00:00.000Z", payments: 2 });
    expect((await receive(db, accountId, second.hook)).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      end: "2026-04-01T00:00:00.000Z",
      payments: 3,
      events: ["subscription.renewed", "subscription.renewed"],
    });

    // The same event again: a duplicate, no job. The same payment in another event: processed, no change.
    expect(await receive(db, accountId, second.hook)).toEqual({ status: "duplicate", eventId: null });
    expect((await receive(db, accountId, chargedHook(ctx, "evt_again", second.payment).hook)).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ end: "2026-04-01T00:00:00.000Z", payments: 3 });
    const again = await db.gatewayEvent.findFirstOrThrow({ where: { accountId, externalEventId: "evt_again" } });
    expect(again).toMatchObject({ status: "processed", error: "This payment is already recorded." });
    const payments = await db.payment.findMany({
      where: { subscriptionId: ctx.subscriptionId },
      orderBy: { id: "asc" },
    });
    expect(payments.map((p) => [p.status, p.amountCents, p.externalOrderId])).toEqual([
      ["CAPTURED", AMOUNT, ctx.gatewaySub],
      ["CAPTURED", AMOUNT, ctx.gatewaySub],
      ["CAPTURED", AMOUNT, ctx.gatewaySub],
    ]);
  });

  it("ends cancelled when the cancellation comes before a charge, and a repeated halt changes nothing", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    expect((await receive(db, accountId, cancelHook(ctx, "subscription.cancelled"))).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect((await receive(db, accountId, chargedHook(ctx).hook)).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect((await receive(db, accountId, cancelHook(ctx, "subscription.halted"))).status).toBe("accepted");
    await runJobsNow(db, deps());
    const sub = await db.subscription.findUniqueOrThrow({ where: { id: ctx.subscriptionId } });
    expect(sub.nextPaymentDueDate).toBeNull();
    expect(await state(ctx)).toEqual({
      status: "CANCELLED",
      end: "2026-03-01T00:00:00.000Z",
      cancelled: true,
      grace: null,
      payments: 2,
      events: ["subscription.cancelled", "subscription.renewed"],
      mails: 0,
    });
    // Cancelled: no grace period at the end, it expires.
    setClock(at("2026-03-01T00:00:00.000Z"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "EXPIRED",
      events: ["subscription.cancelled", "subscription.renewed", "subscription.expired"],
    });
  });

  it("cancelled in its trial (the end is the trial's end): a charge Razorpay made anyway pays the period after it", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    const trialEnd = at("2026-01-15T00:00:00.000Z");
    await db.subscription.update({
      where: { id: ctx.subscriptionId },
      data: {
        trialEndsAt: trialEnd,
        trialPeriodLength: 14,
        trialPeriodUnit: "DAYS",
        status: "CANCELLED",
        cancelledAt: at("2026-01-10T00:00:00.000Z"),
        endTimestamp: trialEnd,
        nextPaymentDueDate: null,
      },
    });
    setClock(at("2026-01-14T23:00:00.000Z"));
    expect((await receive(db, accountId, chargedHook(ctx).hook)).status).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ status: "CANCELLED", end: "2026-02-15T00:00:00.000Z", payments: 2 });
    const charge = await db.payment.findFirstOrThrow({
      where: { subscriptionId: ctx.subscriptionId },
      orderBy: { id: "desc" },
    });
    expect(charge.details).toMatchObject({
      recurring_charge: { period_start: trialEnd.toISOString(), period_end: "2026-02-15T00:00:00.000Z" },
    });
  });

  it("refuses a bad signature: nothing stored, nothing changed", async () => {
    const ctx = await setup();
    const { hook } = chargedHook(ctx);
    const forged = { ...hook, headers: { ...hook.headers, "x-razorpay-signature": "0".repeat(64) } };
    await expect(receive(ctx.db, ctx.accountId, forged)).rejects.toBeInstanceOf(AppError);
    await expect(
      receive(ctx.db, ctx.accountId, { ...hook, body: hook.body.replace(String(AMOUNT), "1") }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await ctx.db.gatewayEvent.count({ where: { accountId: ctx.accountId } })).toBe(0);
    expect(await state(ctx)).toMatchObject({ end: "2026-02-01T00:00:00.000Z", payments: 1, events: [] });
  });

  it("one payment in two events processed by two workers at once is counted once", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    const { payment } = chargedHook(ctx);
    await Promise.all([
      receive(db, accountId, chargedHook(ctx, "evt_a", payment).hook),
      receive(db, accountId, chargedHook(ctx, "evt_b", payment).hook),
    ]);
    await Promise.all([runJobsNow(db, deps(), "worker-a"), runJobsNow(db, deps(), "worker-b")]);
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      end: "2026-03-01T00:00:00.000Z",
      payments: 2,
      events: ["subscription.renewed"],
    });
  });

  it("awaits the gateway's word for a day after the end: a charge in it renews quietly, none starts the grace period", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    // The period ends: the reader keeps reading, told nothing, while Razorpay charges.
    setClock(at("2026-02-01T00:00:00.000Z"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      grace: "2026-02-02T00:00:00.000Z",
      events: [],
      mails: 0,
    });
    const waiting = await db.subscription.findUniqueOrThrow({ where: { id: ctx.subscriptionId } });
    expect(waiting.gatewayWordDueAt?.toISOString()).toBe("2026-02-02T00:00:00.000Z");
    // Razorpay's charge, an hour late: renewed, and no failure ever happened.
    setClock(at("2026-02-01T01:00:00.000Z"));
    await receive(db, accountId, chargedHook(ctx).hook);
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      grace: null,
      end: "2026-03-01T00:00:00.000Z",
      payments: 2,
      events: ["subscription.renewed"],
      mails: 0,
    });
    // The next period's charge never comes: the grace period (and its one mail) when the word was due.
    setClock(at("2026-03-01T00:00:00.000Z"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ grace: "2026-03-02T00:00:00.000Z", mails: 0 });
    setClock(at("2026-03-02T00:00:00.000Z"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      grace: "2026-03-08T00:00:00.000Z",
      events: ["subscription.renewed", "subscription.grace_period_entered"],
      mails: 1,
    });
    setClock(at("2026-03-08T00:00:00.000Z"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "EXPIRED",
      events: ["subscription.renewed", "subscription.grace_period_entered", "subscription.expired"],
      mails: 1,
    });
    // One failure episode, lost; the late charge of February was none.
    const episodes = await db.dunningEpisode.findMany({ where: { subscriptionId: ctx.subscriptionId } });
    expect(episodes.map((e) => [e.periodStart.toISOString(), e.outcome])).toEqual([
      ["2026-03-01T00:00:00.000Z", "LOST"],
    ]);
  });

  it("a failed charge the gateway reports starts the grace period at once, mailed once; its late charge recovers it", async () => {
    const ctx = await setup();
    const { db, accountId } = ctx;
    // Before the end, a failure waits for the end.
    setClock(at("2026-01-31T12:00:00.000Z"));
    await receive(db, accountId, cancelHook(ctx, "subscription.pending"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ grace: null, mails: 0 });
    setClock(at("2026-02-01T00:00:00.000Z"));
    await runJobsNow(db, deps());
    setClock(at("2026-02-01T02:00:00.000Z"));
    await receive(db, accountId, cancelHook(ctx, "subscription.pending"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      grace: "2026-02-08T00:00:00.000Z",
      events: ["subscription.grace_period_entered"],
      mails: 1,
    });
    const inGrace = await db.subscription.findUniqueOrThrow({ where: { id: ctx.subscriptionId } });
    expect(inGrace.gatewayWordDueAt).toBeNull();
    // Razorpay fails its retry too: nothing more is said.
    setClock(at("2026-02-02T02:00:00.000Z"));
    await receive(db, accountId, cancelHook(ctx, "subscription.pending"));
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({ grace: "2026-02-08T00:00:00.000Z", mails: 1 });
    // Its next retry succeeds: recovered.
    setClock(at("2026-02-03T02:00:00.000Z"));
    await receive(db, accountId, chargedHook(ctx).hook);
    await runJobsNow(db, deps());
    expect(await state(ctx)).toMatchObject({
      status: "ACTIVE",
      grace: null,
      end: "2026-03-01T00:00:00.000Z",
      events: ["subscription.grace_period_entered", "subscription.renewed", "subscription.recovered"],
      mails: 1,
    });
    const episodes = await db.dunningEpisode.findMany({ where: { subscriptionId: ctx.subscriptionId } });
    expect(episodes.map((e) => e.outcome)).toEqual(["RECOVERED"]);
  });
});
