/**
 * POST /api/v1/payment_gateways/{provider}/webhooks/{account_id}: Razorpay's webhooks against the
 * Razorpay stand-in (server/testing/razorpay-fixture.ts), their jobs on the real job engine.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { CREATE_GRACE_MS } from "@/server/subscriptions/payments/gateway-events";
import { razorpayAdapter } from "@/server/subscriptions/payments/razorpay";
import { pendingRazorpayCheckout, razorpayStandIn } from "@/server/testing/gateway-checkout";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { type RazorpayFixture } from "@/server/testing/razorpay-fixture";
import { createTestStaff } from "@/server/testing/staff";

import { postGatewayWebhook } from "./post-webhook";

const razorpayAccount = razorpayStandIn();

/** An account with Razorpay set up (credentials saved through the dashboard), pointed at a fresh stand-in. */
async function setup() {
  const db = await getDb();
  const { fx, owner, accountId, creds } = await razorpayAccount(db);
  return { db, fx, owner, accountId, creds };
}

function post(
  accountId: number | string,
  hook: { body: string; headers: Record<string, string> },
  provider = "razorpay",
) {
  return postGatewayWebhook(provider, accountId, hook);
}

async function capturedHook(
  fx: RazorpayFixture,
  orderId: string,
  over: { amount?: number; status?: "captured" | "authorized" } = {},
) {
  const { payment } = fx.pay({ orderId, amount: over.amount, status: over.status ?? "captured" });
  return {
    payment,
    hook: fx.webhook(over.status === "authorized" ? "payment.authorized" : "payment.captured", { payment }),
  };
}

const activatedEvents = (db: Db, accountId: number) =>
  db.webhookEvent.findMany({ where: { accountId, name: "subscription.activated" } });

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("Razorpay webhooks", () => {
  it("payment.captured activates the pending subscription once, records the payment and emits subscription.activated", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    const { payment, hook } = await capturedHook(fx, checkout.orderId);

    const res = await post(accountId, hook);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "accepted" });
    const event = await db.gatewayEvent.findFirstOrThrow({ where: { accountId } });
    expect(event).toMatchObject({
      provider: "razorpay",
      externalEventId: hook.headers["x-razorpay-event-id"],
      eventType: "payment.captured",
      status: "received",
    });

    await runJobsNow(db);
    expect(await db.gatewayEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      status: "processed",
      error: null,
    });
    const subscription = await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } });
    expect(subscription.status).toBe("ACTIVE");
    expect(subscription.paymentToken).toBe(payment.id);
    const payments = await db.payment.findMany({ where: { subscriptionId: checkout.subscriptionId! } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: "CAPTURED",
      externalPaymentId: payment.id,
      externalOrderId: checkout.orderId,
    });
    const activated = await activatedEvents(db, accountId);
    expect(activated).toHaveLength(1);
    expect(activated[0]!.payload).toMatchObject({
      subscription: {
        id: checkout.subscriptionId,
        status: "active",
        active: true,
        subscriber: { id: checkout.memberId },
      },
    });

    // The same delivery again: 200, nothing new.
    const again = await post(accountId, hook);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "duplicate" });
    await runJobsNow(db);
    expect(await db.gatewayEvent.count({ where: { accountId } })).toBe(1);
    expect(await activatedEvents(db, accountId)).toHaveLength(1);
  });

  it("refuses a bad signature, a tampered body, another account's path and unknown gateways, storing nothing", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    const { hook } = await capturedHook(fx, checkout.orderId);

    const badSignature = { ...hook, headers: { ...hook.headers, "x-razorpay-signature": "0".repeat(64) } };
    expect((await post(accountId, badSignature)).status).toBe(401);
    const tampered = {
      ...hook,
      body: hook.body.replace(`"amount":${checkout.amountCents}`, `"amount":${checkout.amountCents + 1}`),
    };
    expect(tampered.body).not.toBe(hook.body);
    expect((await post(accountId, tampered)).status).toBe(401);
    const { "x-razorpay-signature": _s, ...unsigned } = hook.headers;
    expect((await post(accountId, { ...hook, headers: unsigned })).status).toBe(401);
    // Another account (with its own Razorpay) does not accept this account's events.
    const other = await createTestStaff(db, { roles: ["OWNER"] });
    await other.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "sandbox",
      appKey: "rzp_test_OTHER",
      secret: "other-secret-1234",
      webhookSecret: "other-webhook-1234",
    });
    expect((await post(other.account.id, hook)).status).toBe(401);
    // No such gateway, or none set up for the account.
    const bare = await createTestStaff(db, { roles: ["OWNER"] });
    expect((await post(bare.account.id, hook)).status).toBe(404);
    expect((await post(accountId, hook, "manual")).status).toBe(404);
    expect((await post(accountId, hook, "stripe")).status).toBe(404);
    expect((await post("abc", hook)).status).toBe(400);
    // Signed but not a Razorpay event.
    const junk = fx.webhook("x", {});
    const notEvent = {
      body: '{"hello":1}',
      headers: {
        ...junk.headers,
        "x-razorpay-signature": (await import("@/server/subscriptions/payments/razorpay")).razorpayHmac(
          '{"hello":1}',
          fx.webhookSecret,
        ),
      },
    };
    expect((await post(accountId, notEvent)).status).toBe(400);

    expect(await db.gatewayEvent.count({ where: { accountId } })).toBe(0);
    await runJobsNow(db);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } })).status).toBe(
      "PENDING",
    );
  });

  it("stores one event for parallel deliveries of it, and one activation for parallel events of one payment", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    const { payment, hook } = await capturedHook(fx, checkout.orderId);
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(accountId, hook)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const statuses = await Promise.all(responses.map(async (r) => ((await r.json()) as { status: string }).status));
    expect(statuses.filter((s) => s === "accepted")).toHaveLength(1);
    expect(statuses.filter((s) => s === "duplicate")).toHaveLength(5);
    expect(await db.gatewayEvent.count({ where: { accountId } })).toBe(1);

    // payment.authorized and payment.captured of the same payment (other event ids) too, with
    // three workers running the jobs at once.
    const authorized = fx.webhook("payment.authorized", {
      payment: { ...payment, status: "authorized", captured: false },
    });
    const capturedAgain = fx.webhook("payment.captured", { payment });
    expect((await post(accountId, authorized)).status).toBe(200);
    expect((await post(accountId, capturedAgain)).status).toBe(200);
    await Promise.all([
      runJobsNow(db, testJobDeps(), "w1"),
      runJobsNow(db, testJobDeps(), "w2"),
      runJobsNow(db, testJobDeps(), "w3"),
    ]);
    await runJobsNow(db);

    const events = await db.gatewayEvent.findMany({ where: { accountId } });
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.status === "processed")).toBe(true);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } })).status).toBe(
      "ACTIVE",
    );
    const payments = await db.payment.findMany({ where: { subscriptionId: checkout.subscriptionId! } });
    expect(payments).toHaveLength(1);
    expect(payments[0]!.status).toBe("CAPTURED");
    expect(await activatedEvents(db, accountId)).toHaveLength(1);
  });

  it("payment.authorized alone records the authorization and leaves the subscription pending", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    const { payment, hook } = await capturedHook(fx, checkout.orderId, { status: "authorized" });
    expect((await post(accountId, hook)).status).toBe(200);
    await runJobsNow(db);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } })).status).toBe(
      "PENDING",
    );
    expect(await db.payment.findFirstOrThrow({ where: { subscriptionId: checkout.subscriptionId! } })).toMatchObject({
      status: "AUTHORIZED",
      externalPaymentId: payment.id,
    });
    expect(await activatedEvents(db, accountId)).toHaveLength(0);
  });

  it("does not activate on a payment of another amount", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    const { hook } = await capturedHook(fx, checkout.orderId, { amount: 100 });
    expect((await post(accountId, hook)).status).toBe(200);
    await runJobsNow(db);
    const event = await db.gatewayEvent.findFirstOrThrow({ where: { accountId } });
    expect(event.status).toBe("failed");
    expect(event.error).toMatch(/differs/);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } })).status).toBe(
      "PENDING",
    );
    expect(fx.refunds).toHaveLength(0);
  });

  it("waits for the checkout's create, then refunds a payment no subscription took", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, {
      accountId,
      adapter: razorpayAdapter,
      creds,
      withSubscription: false,
    });
    const { payment, hook } = await capturedHook(fx, checkout.orderId);
    expect((await post(accountId, hook)).status).toBe(200);

    // While the attempt may still be used, the event waits.
    await runJobsNow(db);
    let event = await db.gatewayEvent.findFirstOrThrow({ where: { accountId } });
    expect(event.status).toBe("received");
    expect(event.error).toMatch(/Waiting/);
    expect(fx.refunds).toHaveLength(0);

    // After the attempt expired (and the grace): refunded through Razorpay, once.
    const later = new Date(Date.now() + 30 * 60_000 + CREATE_GRACE_MS + 60_000);
    const deps = testJobDeps({ clock: () => later });
    await runJobsNow(db, deps);
    await runJobsNow(db, deps);
    await runJobsNow(db, deps);
    event = await db.gatewayEvent.findFirstOrThrow({ where: { accountId } });
    expect(event.status).toBe("ignored");
    expect(event.error).toMatch(/returned through the gateway/);
    expect(fx.refunds).toHaveLength(1);
    expect(fx.refunds[0]).toMatchObject({ payment_id: payment.id, amount: checkout.amountCents });
    expect(await db.subscription.count({ where: { accountId } })).toBe(0);
  });

  it("leaves alone a payment that is not of a Masthead checkout", async () => {
    const { db, fx, accountId, creds } = await setup();
    const order = await razorpayAdapter.preparePayment(creds, {
      accountId,
      attemptId: "5a0c1d7e-0000-4000-8000-000000000000",
      amountCents: 2500,
      currency: "INR",
      recurring: false,
      plan: { id: null, title: "a shop's order" },
      subscriber: { id: null, name: null, email: null, phone: null },
    });
    const { hook } = await capturedHook(fx, order.externalReferenceId!);
    expect((await post(accountId, hook)).status).toBe(200);
    await runJobsNow(db, testJobDeps({ clock: () => new Date(Date.now() + 24 * 3600_000) }));
    const event = await db.gatewayEvent.findFirstOrThrow({ where: { accountId } });
    expect(event.status).toBe("ignored");
    expect(event.error).toMatch(/Not a payment of a Masthead checkout/);
    expect(fx.refunds).toHaveLength(0);
  });

  it("processes recurring events: one for a gateway subscription that is not ours ends ignored; unmapped events are ignored at once", async () => {
    const { db, fx, accountId } = await setup();
    const sub = { id: "sub_00000000000001", entity: "subscription", status: "active", notes: [] };
    const charged = fx.webhook("subscription.charged", {
      subscription: sub,
      payment: fx.pay({ subscriptionId: sub.id }).payment,
    });
    const halted = fx.webhook("subscription.halted", { subscription: { ...sub, status: "halted" } });
    const unmapped = fx.webhook("order.paid", {});
    const answers = [];
    for (const hook of [charged, halted, unmapped]) {
      const res = await post(accountId, hook);
      expect(res.status).toBe(200);
      answers.push(((await res.json()) as { status: string }).status);
    }
    expect(answers).toEqual(["accepted", "accepted", "ignored"]);
    expect(await db.job.count({ where: { name: "payment_gateway.event", accountId } })).toBe(2);
    await runJobsNow(db);
    const events = await db.gatewayEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.eventType, e.status])).toEqual([
      ["subscription.charged", "ignored"],
      ["subscription.halted", "ignored"],
      ["order.paid", "ignored"],
    ]);
    expect(events[0]!.error).toMatch(/No subscription of ours/);
    expect(events[1]!.error).toMatch(/No subscription of ours/);
    expect(events[2]!.error).toMatch(/No job/);
    expect(await db.payment.count({ where: { accountId } })).toBe(0);
  });

  it("still settles payments after the gateway is disabled (they were made while it was enabled)", async () => {
    const { db, fx, owner, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, { accountId, adapter: razorpayAdapter, creds });
    await owner.caller.paymentGateways.setEnabled({ provider: "razorpay", enabled: false });
    const { hook } = await capturedHook(fx, checkout.orderId);
    expect((await post(accountId, hook)).status).toBe(200);
    await runJobsNow(db);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: checkout.subscriptionId! } })).status).toBe(
      "ACTIVE",
    );
  });

  it("raises a campaign's collected amount when its contribution is activated", async () => {
    const { db, fx, accountId, creds } = await setup();
    const checkout = await pendingRazorpayCheckout(db, {
      accountId,
      adapter: razorpayAdapter,
      creds,
      groupType: "campaign",
    });
    const { hook } = await capturedHook(fx, checkout.orderId);
    expect((await post(accountId, hook)).status).toBe(200);
    await runJobsNow(db);
    const subscription = await db.subscription.findUniqueOrThrow({
      where: { id: checkout.subscriptionId! },
      include: { group: true },
    });
    expect(subscription.status).toBe("ACTIVE");
    expect(subscription.group!.collectedAmountCents).toBe(checkout.amountCents);
  });
});
