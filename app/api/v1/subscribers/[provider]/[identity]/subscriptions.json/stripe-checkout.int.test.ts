/**
 * Checkout through Stripe, by the real routes, against the fake Stripe server reached through the
 * official SDK (server/testing/fake-stripe.ts), on PGlite and PostgreSQL:
 * - a one-time plan: the preview makes a PaymentIntent for the attempt; a PaymentIntent whose
 *   amount was changed at Stripe is refused; a paid one makes the subscription active; a payment
 *   held by 3-D Secure leaves it pending until Stripe's signed payment_intent.succeeded arrives
 *   (a replayed or forged delivery changes nothing);
 * - a recurring plan with a trial: the preview makes a default_incomplete Stripe subscription
 *   starting at the trial's end whose first invoice is the authorization; its invoice.paid may
 *   arrive before the checkout's create and changes nothing then; at the trial's end Stripe's
 *   invoice.paid pays the first period, with no "payment failed" mail.
 */
import { afterEach, describe, expect, it } from "vitest";

import { postGatewayWebhook } from "@/app/api/v1/payment_gateways/[provider]/webhooks/[account_id]/post-webhook";
import { getDb } from "@/server/db";
import { addDuration } from "@/server/subscriptions/subscribers/subscription-state";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { serverCreate, serverPreview, type Answer } from "@/server/testing/checkout-calls";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

const stripeAccount = stripeStandIn();
afterEach(() => resetClock());

const ada = { provider: "email", identity: "ada-stripe@example.com" };
const deps = () => testJobDeps({ clock: now });

async function setup() {
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fake } = await stripeAccount(db, f.account.id);
  const preview = async (subscription: Record<string, unknown>) => {
    const res = await serverPreview(f, subscription, {}, ada);
    const body = (await res.json()) as Answer;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const create = async (subscription: Record<string, unknown>, attemptToken: string) => {
    const res = await serverCreate(f, { subscription, attempt_token: attemptToken }, ada);
    return {
      status: res.status,
      body: (await res.json()) as { subscription?: { id: number }; error?: { message: string } },
    };
  };
  const webhook = async (hook: { body: string; headers: Record<string, string> }) => {
    const res = await postGatewayWebhook("stripe", f.account.id, hook);
    return { status: res.status, body: (await res.json()) as { status?: string } };
  };
  return { db, f, fake, preview, create, webhook };
}

/** A recurring plan bought through Stripe without a trial, its first invoice paid; the failure mails counted. */
async function paidMonthly(ctx: Awaited<ReturnType<typeof setup>>) {
  const { db, f, fake, preview, create } = ctx;
  const payment = { payment_type: "stripe_recurring", amount_currency: "USD" };
  const subscription = { subscription_plan_id: f.trial.id, trial_period: false, payment };
  const previewed = await preview(subscription);
  const subId = previewed.external_reference_id;
  const first = fake.state.invoices.get(fake.state.subscriptions.get(subId)!.latest_invoice as string)!;
  fake.pay(first.payment_intent_id as string, "succeeded");
  const made = await create(
    { ...subscription, payment: { ...payment, amount_cents: 1000, payment_token: subId } },
    previewed.attempt_token,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.subscription!.id;
  const end = (await db.subscription.findUniqueOrThrow({ where: { id } })).endTimestamp!;
  const mails = () =>
    db.outgoingEmail.count({ where: { accountId: f.account.id, kind: "subscription.payment_failed" } });
  return { subId, id, end, mails };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("checkout through Stripe", () => {
  it("takes a one-time payment, refuses a changed amount, and waits for 3-D Secure's webhook", async () => {
    const { db, f, fake, preview, create, webhook } = await setup();
    const payment = { payment_type: "stripe", amount_currency: "USD", amount_cents: 1000 };
    const subscription = { subscription_plan_id: f.monthly.id, payment };

    // A PaymentIntent whose amount was lowered at Stripe after the preview: refused.
    const tampered = await preview(subscription);
    const tamperedPi = tampered.external_reference_id;
    expect(tamperedPi).toMatch(/^pi_/);
    fake.state.paymentIntents.get(tamperedPi)!.amount = 100;
    fake.pay(tamperedPi, "succeeded");
    const refused = await create(
      { ...subscription, payment: { ...payment, payment_token: tamperedPi } },
      tampered.attempt_token,
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error?.message).toMatch(/amount differs/);

    // Paid at once: active.
    const paid = await preview(subscription);
    fake.pay(paid.external_reference_id, "succeeded");
    const made = await create(
      { ...subscription, payment: { ...payment, payment_token: paid.external_reference_id } },
      paid.attempt_token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: made.body.subscription!.id } })).status).toBe(
      "ACTIVE",
    );

    // Held by 3-D Secure: pending until Stripe says the payment succeeded.
    const held = await preview(subscription);
    const pi = held.external_reference_id;
    fake.pay(pi, "requires_action");
    const pending = await create({ ...subscription, payment: { ...payment, payment_token: pi } }, held.attempt_token);
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    const id = pending.body.subscription!.id;
    const status = async () => (await db.subscription.findUniqueOrThrow({ where: { id } })).status;
    expect(await status()).toBe("PENDING");

    fake.completeAction(pi, true);
    const succeeded = fake.webhook("payment_intent.succeeded", fake.state.paymentIntents.get(pi)!);
    const forged = {
      ...succeeded,
      headers: { ...succeeded.headers, "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
    };
    expect((await webhook(forged)).status).toBe(401);
    const stale = fake.webhook("payment_intent.succeeded", fake.state.paymentIntents.get(pi)!, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect((await webhook(stale)).status).toBe(401);
    await runJobsNow(db, deps());
    expect(await status()).toBe("PENDING");

    expect((await webhook(succeeded)).body.status).toBe("accepted");
    expect((await webhook(succeeded)).body.status).toBe("duplicate");
    await runJobsNow(db, deps());
    expect(await status()).toBe("ACTIVE");
    const payments = await db.payment.findMany({ where: { subscriptionId: id } });
    expect(payments.map((p) => [p.status, p.amountCents, p.externalPaymentId])).toEqual([["CAPTURED", 1000, pi]]);
    expect(await db.invoice.count({ where: { subscriptionId: id } })).toBe(1);
  });

  it("a trial: invoice.paid before the create changes nothing; at the trial's end invoice.paid pays the first period, with no failure mail", async () => {
    const { db, f, fake, preview, create, webhook } = await setup();
    const payment = { payment_type: "stripe_recurring", amount_currency: "USD" };
    const subscription = { subscription_plan_id: f.trial.id, payment };
    const previewed = await preview(subscription);
    expect(previewed.subscription).toMatchObject({ payment_amount_cents: 500, total_amount_cents: 1000 });
    const subId = previewed.external_reference_id;
    expect(subId).toMatch(/^sub_/);
    const gatewaySub = fake.state.subscriptions.get(subId)!;
    const firstInvoice = gatewaySub.latest_invoice as string;

    // The reader pays the authorization; Stripe's invoice.paid outruns the browser's create.
    fake.pay(fake.state.invoices.get(firstInvoice)!.payment_intent_id as string, "succeeded");
    const early = fake.webhook("invoice.paid", fake.invoice(firstInvoice));
    expect((await webhook(early)).body.status).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await db.gatewayEvent.findFirstOrThrow({ where: { externalEventId: early.id } })).toMatchObject({
      status: "ignored",
    });

    const made = await create(
      { ...subscription, payment: { ...payment, amount_cents: 500, payment_token: subId } },
      previewed.attempt_token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: made.body.subscription!.id } });
    const trialEnd = row.trialEndsAt!;
    const firstEnd = addDuration(trialEnd, 1, "MONTHS")!;
    expect(row).toMatchObject({ status: "ACTIVE", paymentAmountCents: 1000 });
    expect(row.endTimestamp?.toISOString()).toBe(firstEnd.toISOString());
    expect(Math.abs((gatewaySub.trial_end as number) - trialEnd.getTime() / 1000)).toBeLessThanOrEqual(5);
    // The trial's authorization is refunded through the first invoice's PaymentIntent.
    await runJobsNow(db, deps());
    const authorization = fake.state.invoices.get(firstInvoice)!.payment_intent_id as string;
    expect([...fake.state.refunds.values()].map((r) => [r.payment_intent, r.amount])).toEqual([[authorization, 500]]);
    // The same invoice again, in a new delivery: counted once (the invoice id is the payment's).
    expect((await webhook(fake.webhook("invoice.paid", fake.invoice(firstInvoice)))).body.status).toBe("accepted");
    await runJobsNow(db, deps());
    expect((await db.subscription.findUniqueOrThrow({ where: { id: row.id } })).endTimestamp?.toISOString()).toBe(
      firstEnd.toISOString(),
    );

    // The trial ends: the lifecycle runs, then Stripe charges the plan's price and says so.
    setClock(new Date(trialEnd.getTime() + 60_000));
    await runJobsNow(db, deps());
    const { invoice } = fake.renew(subId, "paid");
    expect(invoice).toMatchObject({ amount_paid: 1000, billing_reason: "subscription_cycle" });
    const renewal = fake.webhook("invoice.paid", invoice);
    expect((await webhook(renewal)).body.status).toBe("accepted");
    expect((await webhook(renewal)).body.status).toBe("duplicate");
    await runJobsNow(db, deps());
    const after = await db.subscription.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.status).toBe("ACTIVE");
    expect(after.endTimestamp?.toISOString()).toBe(firstEnd.toISOString());
    const charges = await db.payment.findMany({ where: { subscriptionId: row.id, attemptId: null } });
    expect(charges.map((p) => [p.status, p.amountCents, p.externalPaymentId])).toEqual([
      ["CAPTURED", 1000, invoice.id],
    ]);
    // A month later, at the period's end: the lifecycle runs as Stripe charges the next period;
    // its invoice.paid renews the subscription, and no "payment failed" mail goes out.
    setClock(new Date(firstEnd.getTime() + 60_000));
    await runJobsNow(db, deps());
    const next = fake.renew(subId, "paid").invoice;
    expect((await webhook(fake.webhook("invoice.paid", next))).body.status).toBe("accepted");
    await runJobsNow(db, deps());
    const secondEnd = addDuration(firstEnd, 1, "MONTHS")!;
    setClock(new Date(firstEnd.getTime() + 3 * 86_400_000));
    await runJobsNow(db, deps());
    const renewed = await db.subscription.findUniqueOrThrow({ where: { id: row.id } });
    expect([renewed.status, renewed.endTimestamp?.toISOString(), renewed.graceEndsAt]).toEqual([
      "ACTIVE",
      secondEnd.toISOString(),
      null,
    ]);
    expect(
      await db.outgoingEmail.count({ where: { accountId: f.account.id, kind: "subscription.payment_failed" } }),
    ).toBe(0);
  });
  it("mails the reader a day after the period's end when Stripe reported no charge, once; Stripe's late charge recovers it", async () => {
    const ctx = await setup();
    const { db, fake, webhook } = ctx;
    const { subId, id, end, mails } = await paidMonthly(ctx);

    // The period ends; Stripe's charge fails, and it does not say so: the reader keeps reading
    // until Stripe's word is due (a day), told nothing.
    setClock(new Date(end.getTime() + 60_000));
    await runJobsNow(db, deps());
    const failed = fake.renew(subId, "failed").invoice;
    expect(failed.status).toBe("open");
    expect((await db.subscription.findUniqueOrThrow({ where: { id } })).graceEndsAt).not.toBeNull();
    expect(await mails()).toBe(0);
    // A day later, still nothing from Stripe: the reader is told, once.
    setClock(new Date(end.getTime() + 25 * 3_600_000));
    await runJobsNow(db, deps());
    setClock(new Date(end.getTime() + 26 * 3_600_000));
    await runJobsNow(db, deps());
    expect(await mails()).toBe(1);

    // Stripe's own retry succeeds: invoice.paid recovers the period.
    fake.pay(fake.state.invoices.get(failed.id as string)!.payment_intent_id as string, "succeeded");
    expect((await webhook(fake.webhook("invoice.paid", fake.invoice(failed.id as string)))).body.status).toBe(
      "accepted",
    );
    await runJobsNow(db, deps());
    const recovered = await db.subscription.findUniqueOrThrow({ where: { id } });
    expect([recovered.status, recovered.graceEndsAt, recovered.endTimestamp?.toISOString()]).toEqual([
      "ACTIVE",
      null,
      addDuration(end, 1, "MONTHS")!.toISOString(),
    ]);
    expect(await mails()).toBe(1);
  });

  it("Stripe's own word: a failed renewal starts the grace period at once, mailed once; a refund and a lost dispute made on Stripe are recorded", async () => {
    const ctx = await setup();
    const { db, f, fake, preview, create, webhook } = ctx;
    const { subId, id, end, mails } = await paidMonthly(ctx);

    // The renewal's charge fails and Stripe says so: the grace period now, one mail; Stripe's
    // failed retry says so again, and nothing more is sent.
    setClock(new Date(end.getTime() + 3_600_000));
    await runJobsNow(db, deps());
    const failed = fake.renew(subId, "failed").invoice;
    for (const delivery of ["first", "retry"]) {
      const hook = fake.webhook("invoice.payment_failed", fake.invoice(failed.id as string));
      expect((await webhook(hook)).body.status, delivery).toBe("accepted");
      await runJobsNow(db, deps());
    }
    const inGrace = await db.subscription.findUniqueOrThrow({ where: { id } });
    expect([inGrace.gatewayWordDueAt, inGrace.graceEndsAt!.getTime() > end.getTime() + 86_400_000]).toEqual([
      null,
      true,
    ]);
    expect(await mails()).toBe(1);

    // A one-time payment, refunded in part on Stripe's Dashboard, then disputed and lost.
    const oneTime = { subscription_plan_id: f.monthly.id, payment: { payment_type: "stripe", amount_currency: "USD" } };
    const paid = await preview(oneTime);
    const pi = paid.external_reference_id;
    fake.pay(pi, "succeeded");
    const bought = await create(
      { ...oneTime, payment: { ...oneTime.payment, amount_cents: 1000, payment_token: pi } },
      paid.attempt_token,
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const refund = {
      id: "re_DASHBOARD",
      object: "refund",
      amount: 300,
      currency: "usd",
      payment_intent: pi,
      status: "succeeded",
      metadata: {},
    };
    expect((await webhook(fake.webhook("refund.created", refund))).body.status).toBe("accepted");
    expect((await webhook(fake.webhook("refund.updated", refund))).body.status).toBe("accepted");
    const dispute = {
      id: "du_1",
      object: "dispute",
      amount: 1000,
      currency: "usd",
      payment_intent: pi,
      reason: "fraudulent",
    };
    await webhook(fake.webhook("charge.dispute.created", { ...dispute, status: "needs_response" }));
    await webhook(fake.webhook("charge.dispute.closed", { ...dispute, status: "lost" }));
    await runJobsNow(db, deps());
    const charged = await db.payment.findFirstOrThrow({ where: { externalPaymentId: pi }, include: { refunds: true } });
    expect([charged.status, charged.refundedCents]).toEqual(["REFUNDED", 1000]);
    expect(charged.refunds.map((r) => [r.externalRefundId, r.amountCents]).sort()).toEqual([
      ["dispute:du_1", 700],
      ["re_DASHBOARD", 300],
    ]);
    expect(await db.paymentDispute.count({ where: { paymentId: charged.id, status: "lost" } })).toBe(1);
  });
});
