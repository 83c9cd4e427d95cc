/**
 * A stripe_recurring subscription made through checkout against the fake Stripe server (the real
 * routes, the official SDK), on PGlite and PostgreSQL: Masthead's cancel, undo, pause and resume
 * tell Stripe before they are recorded (./gateway-sync.ts); Stripe down leaves Masthead unchanged
 * (503), a repeat and two concurrent cancels make one change; and what is done on Stripe's side
 * (the Customer Portal, its dashboard) is followed from customer.subscription.updated, replayed and
 * out-of-order deliveries included (../payments/gateway-subscription-events.ts).
 */
import { afterEach, describe, expect, it } from "vitest";

import { postGatewayWebhook } from "@/app/api/v1/payment_gateways/[provider]/webhooks/[account_id]/post-webhook";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { isAppError } from "@/server/errors";
import { pausedUntilOf } from "@/server/subscriptions/recurring/pauses";
import { offerForSubscription } from "@/server/subscriptions/self-service/retention-offers";
import { undoCancel } from "@/server/subscriptions/self-service/self-service-cancel";
import { cancelSubscription } from "@/server/subscriptions/subscribers/subscriptions";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { call } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createTestStaff } from "@/server/testing/staff";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

const stripeAccount = stripeStandIn();
afterEach(() => resetClock());

const ada = { provider: "email", identity: "ada-gwsync@example.com" };

/** A paid monthly stripe_recurring subscription, through the routes. */
async function setup() {
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fake } = await stripeAccount(db, f.account.id);
  const payment = { payment_type: "stripe_recurring", amount_currency: "USD" };
  const subscription = { subscription_plan_id: f.trial.id, trial_period: false, payment };
  const res = await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription }, { "x-subauth": f.serverKey });
  const previewed = (await res.json()) as { attempt_token: string; external_reference_id: string };
  expect(res.status, JSON.stringify(previewed)).toBe(200);
  const stripeId = previewed.external_reference_id;
  const first = fake.state.invoices.get(fake.state.subscriptions.get(stripeId)!.latest_invoice as string)!;
  fake.pay(first.payment_intent_id as string, "succeeded");
  const made = await call(
    SERVER_CREATE,
    "POST",
    "/x",
    ada,
    {
      subscription: { ...subscription, payment: { ...payment, amount_cents: 1000, payment_token: stripeId } },
      attempt_token: previewed.attempt_token,
    },
    { "x-subauth": f.serverKey },
  );
  const body = (await made.json()) as { subscription: { id: number } };
  expect(made.status, JSON.stringify(body)).toBe(201);
  const id = body.subscription.id;
  const row = () => db.subscription.findUniqueOrThrow({ where: { id } });
  const memberId = (await row()).memberId;
  const reader = { accountId: f.account.id, memberId, subscriptionId: id };
  const cancel = () =>
    cancelSubscription(db, { accountId: f.account.id, caller: { via: "server_api", memberId }, id, now: now() });
  const stripeWrites = () =>
    fake.calls.filter((c) => c.method !== "GET" && c.path === `/v1/subscriptions/${stripeId}`).length;
  const audits = (action: string) => db.auditLog.count({ where: { targetId: String(id), action } });
  const events = (name: string) => db.webhookEvent.count({ where: { accountId: f.account.id, name } });
  const webhook = async (hook: { body: string; headers: Record<string, string> }) => {
    const res = await postGatewayWebhook("stripe", f.account.id, hook);
    const answer = (await res.json()) as { status?: string; event_id?: number };
    await runJobsNow(db, testJobDeps({ clock: now }));
    const stored = answer.event_id ? await db.gatewayEvent.findUniqueOrThrow({ where: { id: answer.event_id } }) : null;
    return { status: answer.status, event: stored };
  };
  return { db, f, fake, id, stripeId, row, reader, cancel, stripeWrites, audits, events, webhook };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (isAppError(e) ? e.code : e),
  );

describe("Masthead tells Stripe", () => {
  it("offers no retention coupon on a Stripe subscription (Stripe would charge the full price); the pause offer stays", async () => {
    const { db, f, row } = await setup();
    const coupon = await db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "STAY50",
        discountType: "PERCENT",
        percentOff: 50,
        validFrom: new Date(0),
      },
    });
    await db.retentionOffer.create({
      data: { accountId: f.account.id, kind: "coupon", couponId: coupon.id, periods: 2, enabled: true },
    });
    expect(await offerForSubscription(db, await row(), now())).toBeNull();
    await db.retentionOffer.update({
      where: { accountId: f.account.id },
      data: { kind: "pause", couponId: null },
    });
    expect(await offerForSubscription(db, await row(), now())).toMatchObject({ kind: "pause", periods: 2 });
  });

  it("cancels at the period end on Stripe first; Stripe down changes nothing; a repeat and a concurrent cancel make one change", async () => {
    const { fake, stripeId, row, cancel, stripeWrites, audits, events } = await setup();

    fake.failNext(20, 500);
    expect(await codeOf(cancel())).toBe("SERVICE_UNAVAILABLE");
    fake.failNext(0);
    expect((await row()).status).toBe("ACTIVE");
    expect(fake.subscription(stripeId).cancel_at_period_end).toBe(false);
    expect(await audits("subscription.cancel")).toBe(0);

    const [a, b] = await Promise.all([cancel(), cancel()]);
    expect([a.status, b.status]).toEqual(["cancelled", "cancelled"]);
    expect(await cancel()).toMatchObject({ status: "cancelled" });
    expect(fake.subscription(stripeId).cancel_at_period_end).toBe(true);
    expect(stripeWrites()).toBe(1);
    expect(await audits("subscription.cancel")).toBe(1);
    expect(await events("subscription.cancelled")).toBe(1);
    expect(await row()).toMatchObject({ status: "CANCELLED", gatewayState: "cancelling", nextPaymentDueDate: null });
  });

  it("after a crash between Stripe's answer and the write, the repeat finds Stripe done and records the cancel", async () => {
    const { fake, stripeId, row, cancel, stripeWrites } = await setup();
    // Stripe took the cancel; Masthead's transaction never committed.
    fake.state.subscriptions.get(stripeId)!.cancel_at_period_end = true;
    await cancel();
    expect(stripeWrites()).toBe(0);
    expect((await row()).status).toBe("CANCELLED");
  });

  it("takes a cancel back on Stripe; refused by Stripe (ended there), Masthead stays cancelled", async () => {
    const { fake, stripeId, row, reader, cancel } = await setup();
    await cancel();
    await undoCancel(await getDb(), { ...reader, now: now() });
    expect(fake.subscription(stripeId)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect(await row()).toMatchObject({ status: "ACTIVE", cancelledAt: null, gatewayState: "active" });

    await cancel();
    fake.state.subscriptions.get(stripeId)!.status = "canceled";
    expect(await codeOf(undoCancel(await getDb(), { ...reader, now: now() }))).toBe("UNPROCESSABLE");
    expect((await row()).status).toBe("CANCELLED");
  });

  it("pauses collection on Stripe until just before the pause ends (staff), and resumes it when the reader takes the pause back", async () => {
    const { db, f, fake, id, stripeId, row, reader } = await setup();
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: f.account.id });
    const applied = await owner.caller.subscriberSubscriptions.pause({ id, periods: 2 });
    const pause = fake.subscription(stripeId).pause_collection as { behavior: string; resumes_at: number };
    expect(pause.behavior).toBe("void");
    const until = Date.parse(applied.until);
    expect(pause.resumes_at * 1000).toBeLessThan(until);
    expect(pause.resumes_at * 1000).toBeGreaterThan(until - 24 * 60 * 60_000 - 1000);
    expect(await row()).toMatchObject({ status: "CANCELLED", gatewayState: "paused" });

    await undoCancel(db, { ...reader, now: now() });
    expect(fake.subscription(stripeId).pause_collection).toBeNull();
    expect(await row()).toMatchObject({ status: "ACTIVE", gatewayState: "active" });
  });
});

describe("Masthead follows Stripe", () => {
  it("follows a cancel in the Customer Portal once, ignores a replay and an older event, and follows its undo", async () => {
    const { fake, stripeId, row, webhook, events, audits } = await setup();
    const sub = fake.state.subscriptions.get(stripeId)!;
    const before = fake.state.now();
    Object.assign(sub, { cancel_at_period_end: true, canceled_at: before });
    const cancelled = fake.webhook("customer.subscription.updated", fake.subscription(stripeId), {
      previousAttributes: { cancel_at_period_end: false },
    });
    expect(await webhook(cancelled)).toMatchObject({ status: "accepted", event: { status: "processed" } });
    expect(await row()).toMatchObject({ status: "CANCELLED", gatewayState: "cancelling" });
    expect(await events("subscription.cancelled")).toBe(1);
    expect(await audits("subscription.cancel")).toBe(1);
    expect((await webhook(cancelled)).status).toBe("duplicate");

    // An event Stripe made before that one, delivered late: stale, nothing changes.
    const older = fake.webhook(
      "customer.subscription.updated",
      { ...fake.subscription(stripeId), cancel_at_period_end: false, cancel_at: null },
      { created: before - 60 },
    );
    const stale = (await webhook(older)).event;
    expect(stale?.status).toBe("ignored");
    expect(stale?.error).toMatch(/older/);
    expect((await row()).status).toBe("CANCELLED");

    // The reader takes it back in the portal: active again, once.
    Object.assign(sub, { cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    const renewed = fake.webhook("customer.subscription.updated", fake.subscription(stripeId), {
      created: before + 5,
    });
    expect((await webhook(renewed)).event).toMatchObject({ status: "processed" });
    expect(await row()).toMatchObject({ status: "ACTIVE", cancelledAt: null });
    expect(await events("subscription.activated")).toBe(2);
  });

  it("sends nothing twice when Masthead's own cancel comes back from Stripe", async () => {
    const { fake, stripeId, row, cancel, webhook, events } = await setup();
    await cancel();
    const echo = fake.webhook("customer.subscription.updated", fake.subscription(stripeId), {
      previousAttributes: { cancel_at_period_end: false },
    });
    expect((await webhook(echo)).event?.status).toMatch(/processed|ignored/);
    expect(await events("subscription.cancelled")).toBe(1);
    expect((await row()).status).toBe("CANCELLED");
  });

  it("follows a pause set on Stripe with a resume date as Masthead's pause until the period end after it", async () => {
    const { db, fake, id, stripeId, row, webhook } = await setup();
    const end = (await row()).endTimestamp!;
    // Past the first period after the paid one: the pause lasts two periods.
    const resumesAt = Math.floor(end.getTime() / 1000) + 40 * 86_400;
    fake.state.subscriptions.get(stripeId)!.pause_collection = { behavior: "void", resumes_at: resumesAt };
    const paused = fake.webhook("customer.subscription.updated", fake.subscription(stripeId), {
      previousAttributes: { pause_collection: null },
    });
    expect((await webhook(paused)).event).toMatchObject({ status: "processed" });
    expect(await row()).toMatchObject({ status: "CANCELLED", gatewayState: "paused" });
    const until = (await pausedUntilOf(db, [{ id, status: "cancelled" }])).get(id)!;
    expect(Date.parse(until)).toBeGreaterThanOrEqual(resumesAt * 1000);
    expect(Date.parse(until) - resumesAt * 1000).toBeLessThan(31 * 86_400_000);
  });

  it("follows an open-ended pause as no renewal, and wakes the subscription when Stripe collects again after its end", async () => {
    const { db, f, fake, stripeId, row, webhook, events } = await setup();
    const end = (await row()).endTimestamp!;
    const sub = fake.state.subscriptions.get(stripeId)!;
    sub.pause_collection = { behavior: "keep_as_draft", resumes_at: null };
    const paused = fake.webhook("customer.subscription.updated", fake.subscription(stripeId));
    expect((await webhook(paused)).event).toMatchObject({ status: "processed" });
    expect(await row()).toMatchObject({ status: "CANCELLED", gatewayState: "paused", nextPaymentDueDate: null });
    expect(await events("subscription.cancelled")).toBe(0);

    // The paid period ends: expired, as a cancelled subscription does; no "payment failed" mail.
    setClock(new Date(end.getTime() + 60_000));
    await runJobsNow(db, testJobDeps({ clock: now }));
    expect((await row()).status).toBe("EXPIRED");

    sub.pause_collection = null;
    const resumed = fake.webhook("customer.subscription.updated", fake.subscription(stripeId), {
      created: Math.floor(now().getTime() / 1000),
    });
    expect((await webhook(resumed)).event).toMatchObject({ status: "processed" });
    expect(await row()).toMatchObject({ status: "ACTIVE", cancelledAt: null, gatewayState: "active" });
    const woken = await db.webhookEvent.findFirst({
      where: { accountId: f.account.id, name: "subscription.activated" },
      orderBy: { id: "desc" },
    });
    expect(woken?.payload).toMatchObject({ resumed_from_pause: true });
    expect(
      await db.outgoingEmail.count({ where: { accountId: f.account.id, kind: "subscription.payment_failed" } }),
    ).toBe(0);
  });
});
