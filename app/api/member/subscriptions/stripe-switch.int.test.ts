/**
 * Plan switches of a Stripe subscription (stripe_recurring: Stripe charges it by itself), through
 * the self-service page's routes (the client API's switch_plan, one code path), against the fake
 * Stripe server reached through the official SDK, on PGlite and PostgreSQL. The subscription is
 * bought through the real checkout routes (a monthly plan of 1000, its first invoice paid).
 * - An upgrade now, with proration on: the preview shows what Stripe will charge (its own
 *   proration at a frozen proration_date), the confirm charges exactly that through Stripe (one
 *   invoice however often or concurrently it is confirmed), records it like a recurring charge, and
 *   Stripe's invoice.paid for it then changes nothing more.
 * - A downgrade with proration off: scheduled, and Stripe's subscription moved to the new price
 *   with no proration at the confirm, so Stripe's next invoice is the new price, which Masthead's
 *   renewal then takes.
 * - A declined card, Stripe down, and an amount changed since the preview change nothing.
 */
import { afterEach, describe, expect, it } from "vitest";

import { postGatewayWebhook } from "@/app/api/v1/payment_gateways/[provider]/webhooks/[account_id]/post-webhook";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { verifyAttemptToken } from "@/server/subscriptions/checkout/attempt-token";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { call } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { stripeStandIn } from "@/server/testing/stripe-checkout";
import { insertTestPlan } from "@/server/testing/subscription-fixtures";

import { POST as SWITCH_PREVIEW } from "./[subscription_id]/switch/preview/route";
import { POST as SWITCH } from "./[subscription_id]/switch/route";

const stripeAccount = stripeStandIn();
afterEach(() => resetClock());

const ada = { provider: "email", identity: "ada-switch@example.com" };
// The answers' JSON is read loosely in assertions.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A Stripe monthly subscription of 1000 bought through checkout, and the plans it may switch to. */
async function setup(opts: { proration?: boolean } = {}) {
  forgetPublisherCache();
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fake } = await stripeAccount(db, f.account.id);
  if (opts.proration === false)
    await db.subscriptionGroup.update({ where: { id: f.group.id }, data: { prorationEnabled: false } });
  const premium = await insertTestPlan(db, f.group, { title: "Premium", priceCents: 1200, recurring: true });
  const lite = await insertTestPlan(db, f.group, { title: "Lite", priceCents: 400, recurring: true });
  const payment = { payment_type: "stripe_recurring", amount_currency: "USD" };
  const subscription = { subscription_plan_id: f.trial.id, trial_period: false, payment };
  const headers = { "x-subauth": f.serverKey };
  const previewed = (await (await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription }, headers)).json()) as Json;
  const stripeSub = fake.state.subscriptions.get(previewed.external_reference_id as string)!;
  const stripePath = `/v1/subscriptions/${previewed.external_reference_id as string}`;
  fake.pay(fake.state.invoices.get(stripeSub.latest_invoice as string)!.payment_intent_id as string, "succeeded");
  const made = await call(
    SERVER_CREATE,
    "POST",
    "/x",
    ada,
    {
      subscription: { ...subscription, payment: { ...payment, amount_cents: 1000, payment_token: stripeSub.id } },
      attempt_token: previewed.attempt_token,
    },
    headers,
  );
  const created = (await made.json()) as Json;
  expect(made.status, JSON.stringify(created)).toBe(201);
  const id = created.subscription.id as number;
  const sub = await db.subscription.findUniqueOrThrow({ where: { id } });
  const { token } = await createMemberSession(db, { memberId: sub.memberId, now: new Date(), days: 1 });
  const page = async (handler: Parameters<typeof call>[0], tail: string, body: unknown) => {
    const res = await call(
      handler,
      "POST",
      `/api/member/subscriptions/${id}${tail}`,
      { subscription_id: String(id) },
      body,
      {
        "X-QT-AUTH": token,
      },
    );
    return { status: res.status, body: (await res.json()) as Json };
  };
  const item = (stripeSub.items as { data: Json[] }).data[0]!;
  const stripePrice = () => item.price.unit_amount as number;
  const switchInvoices = () =>
    [...fake.state.invoices.values()].filter((i) => i.billing_reason === "subscription_update");
  const row = () => db.subscription.findUniqueOrThrow({ where: { id } });
  const webhook = async (hook: { body: string; headers: Record<string, string> }) => {
    const res = await postGatewayWebhook("stripe", f.account.id, hook);
    return (await res.json()) as { status?: string };
  };
  return {
    db,
    f,
    fake,
    id,
    sub,
    premium,
    lite,
    page,
    stripeSub,
    stripePath,
    stripePrice,
    switchInvoices,
    row,
    webhook,
  };
}

const deps = () => testJobDeps({ clock: now });

describe("a Stripe subscription's plan switch", () => {
  it("upgrades now, charged through Stripe's proration exactly as previewed, once", async () => {
    const s = await setup();
    const p = await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.premium.id });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const w = p.body.switch;
    expect(w).toMatchObject({ applies: "now", price_cents: 1200, charged_with: "stored_method", carry_cents: 0 });
    const charge = p.body.chargeable_amount_cents as number;
    // Moments into the period: about the whole new price for the rest, less about all of the old.
    expect(w.rest_cents - w.credit_cents).toBe(charge);
    expect(charge).toBeGreaterThan(150);
    expect(charge).toBeLessThanOrEqual(200);
    expect(s.switchInvoices()).toHaveLength(0);

    const [a, b] = await Promise.all([
      s.page(SWITCH, "/switch", { attempt_token: p.body.attempt_token }),
      s.page(SWITCH, "/switch", { attempt_token: p.body.attempt_token }),
    ]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect((await s.page(SWITCH, "/switch", { attempt_token: p.body.attempt_token })).status).toBe(200);

    const invoices = s.switchInvoices();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "paid", amount_paid: charge });
    expect(s.stripePrice()).toBe(1200);
    const after = await s.row();
    expect(after).toMatchObject({ planId: s.premium.id, paymentAmountCents: 1200, creditCents: 0 });
    expect(after.endTimestamp?.toISOString()).toBe(s.sub.endTimestamp?.toISOString());
    const payments = await s.db.payment.findMany({ where: { subscriptionId: s.id }, orderBy: { id: "asc" } });
    expect(payments.map((x) => [x.amountCents, x.externalPaymentId, x.externalOrderId])).toEqual([
      [1000, payments[0]!.externalPaymentId, s.stripeSub.id],
      [charge, invoices[0]!.id, s.stripeSub.id],
    ]);
    expect(await s.db.invoice.count({ where: { subscriptionId: s.id, amountCents: charge } })).toBe(1);

    // Stripe's invoice.paid for the switch's invoice: already recorded, the period unchanged.
    expect((await s.webhook(s.fake.webhook("invoice.paid", s.fake.invoice(invoices[0]!.id as string)))).status).toBe(
      "accepted",
    );
    await runJobsNow(s.db, deps());
    expect(await s.db.payment.count({ where: { subscriptionId: s.id } })).toBe(2);
    expect((await s.row()).endTimestamp?.toISOString()).toBe(s.sub.endTimestamp?.toISOString());
  });

  it("schedules a downgrade with proration off: Stripe's price changes now with no proration, its next invoice is the new price", async () => {
    const s = await setup({ proration: false });
    const p = await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.lite.id });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.switch).toMatchObject({ applies: "scheduled", scheduled_reason: "proration_off" });
    expect(p.body.chargeable_amount_cents).toBeNull();
    expect(s.stripePrice()).toBe(1000);
    const done = await s.page(SWITCH, "/switch", { attempt_token: p.body.attempt_token });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(s.stripePrice()).toBe(400);
    expect(s.switchInvoices()).toHaveLength(0);
    const updates = s.fake.calls.filter((c) => c.method === "POST" && c.path === s.stripePath);
    expect(updates.map((c) => c.params.proration_behavior)).toEqual(["none"]);
    expect(await s.row()).toMatchObject({ planId: s.f.trial.id, scheduledPlanId: s.lite.id });

    // The period ends: the switch applies, Stripe charges 400 and says so; Masthead takes it as the renewal.
    const end = s.sub.endTimestamp!;
    setClock(new Date(end.getTime() + 60_000));
    await runJobsNow(s.db, deps());
    expect(await s.row()).toMatchObject({ planId: s.lite.id, paymentAmountCents: 400 });
    const { invoice } = s.fake.renew(s.stripeSub.id as string, "paid");
    expect(invoice).toMatchObject({ amount_paid: 400 });
    expect((await s.webhook(s.fake.webhook("invoice.paid", invoice))).status).toBe("accepted");
    await runJobsNow(s.db, deps());
    const renewal = await s.db.payment.findFirstOrThrow({ where: { externalPaymentId: invoice.id as string } });
    expect(renewal).toMatchObject({ amountCents: 400, status: "CAPTURED" });
    expect((await s.row()).endTimestamp!.getTime()).toBeGreaterThan(end.getTime());
  });

  it("changes nothing when the card is declined, Stripe is down, or the amount changed since the preview", async () => {
    const s = await setup();
    const preview = async () => {
      const p = await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.premium.id });
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      return p.body;
    };
    const unchanged = async () => {
      expect(await s.row()).toMatchObject({ planId: s.f.trial.id, paymentAmountCents: 1000 });
      expect(await s.db.payment.count({ where: { subscriptionId: s.id } })).toBe(1);
      expect(s.stripePrice()).toBe(1000);
    };

    // Declined: Stripe's reason; its pending update voided.
    const goodCard = s.stripeSub.default_payment_method;
    s.stripeSub.default_payment_method = s.fake.state.createPaymentMethod({
      last4: "0002",
      customer: s.stripeSub.customer as string,
    }).id;
    const declined = await s.page(SWITCH, "/switch", { attempt_token: (await preview()).attempt_token });
    expect(declined.status).toBe(422);
    expect(declined.body.error.message).toMatch(/not made: Your card has insufficient funds\. Nothing changed/);
    expect(s.switchInvoices().map((i) => i.status)).toEqual(["void"]);
    expect(s.stripeSub.pending_update).toBeNull();
    await unchanged();
    s.stripeSub.default_payment_method = goodCard;

    // Stripe down (every retry of the SDK too): 503, nothing changed; the same preview goes through later.
    const p = await preview();
    s.fake.failNext(50, 500);
    const down = await s.page(SWITCH, "/switch", { attempt_token: p.attempt_token });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "The payment gateway could not be reached; try again.",
    });
    await unchanged();
    s.fake.failNext(0);

    // The amount frozen in the attempt altered: refused before Stripe changes anything.
    const row = await s.db.subscriptionAttempt.findUniqueOrThrow({
      where: { id: verifyAttemptToken(p.attempt_token as string)! },
    });
    const terms = row.terms as Json;
    await s.db.subscriptionAttempt.update({
      where: { id: row.id },
      data: { terms: { ...terms, recurring: { ...terms.recurring, charge_cents: terms.recurring.charge_cents - 50 } } },
    });
    const before = s.fake.calls.length;
    const tampered = await s.page(SWITCH, "/switch", { attempt_token: p.attempt_token });
    expect(tampered.status).toBe(422);
    expect(tampered.body.error.message).toMatch(/instead of the \d+ previewed/);
    expect(s.fake.calls.slice(before).filter((c) => c.path === s.stripePath && c.method === "POST")).toHaveLength(0);
    await unchanged();
  });
});
