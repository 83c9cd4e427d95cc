/**
 * A recurring subscription's plan switch applied now and prorated (docs/subscriptions.md "Plan
 * switching"), through the self-service page and the client API (one code path), on PGlite and
 * PostgreSQL: an upgrade charged once through the adapter's chargeRecurring on the stored method
 * (two concurrent confirms, one charge, one payment, one invoice); a declined charge changes
 * nothing; a downgrade's credit carried into the next renewal on the test clock and shown on its
 * invoice; another billing interval resets the cycle.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { invoiceDocumentModel } from "@/server/subscriptions/invoices/invoice-document";
import { invoiceToWire } from "@/server/subscriptions/invoices/invoices";
import {
  PaymentAdapterError,
  type PaymentAdapter,
  type RecurringCharge,
} from "@/server/subscriptions/payments/adapter";
import { paymentAdapterFor, registerPaymentAdapter } from "@/server/subscriptions/payments/registry";
import { scheduleSubscriptionLifecycle } from "@/server/subscriptions/recurring/lifecycle";
import { timeInWords } from "@/server/subscriptions/self-service/self-service-words";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { call } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { documentLanguage } from "@/server/testing/pdf-text";
import { insertSelfServiceSubscription, insertTestPlan } from "@/server/testing/subscription-fixtures";

import { POST as CLIENT_PREVIEW } from "../../access/v1/members/me/subscriptions/[subscription_id]/switch_plan/preview/route";
import { POST as CLIENT_SWITCH } from "../../access/v1/members/me/subscriptions/[subscription_id]/switch_plan/route";
import { POST as SWITCH_PREVIEW } from "./[subscription_id]/switch/preview/route";
import { POST as SWITCH } from "./[subscription_id]/switch/route";
import { GET as OVERVIEW } from "./route";

const DAY = 86_400_000;

/** "cardpay": charges a stored card (renewals and switches), recording each call; "tok_declined" is refused. */
const charges: RecurringCharge[] = [];
const cardpay: PaymentAdapter = {
  paymentTypes: ["cardpay"],
  provider: null,
  takesPayment: true,
  callers: "any",
  async preparePayment() {
    return { externalReferenceId: null };
  },
  async verifyPayment() {
    return { status: "failed", externalPaymentId: null, externalOrderId: null, reason: "not in these tests" };
  },
  async chargeRecurring(_creds, charge) {
    charges.push(charge);
    // A gateway that takes a while: concurrent confirms overlap here.
    await new Promise((resolve) => setTimeout(resolve, 30));
    if (charge.paymentToken === "tok_declined") return { status: "failed", reason: "The card was declined." };
    return { status: "captured", externalPaymentId: `cardpay_${charge.idempotencyKey}` };
  },
  webhookRequestAuthorized: () => false,
  webhookEventTypeMapping: () => ({}),
  webhookEventDetails() {
    throw new PaymentAdapterError("no webhooks", "invalid");
  },
};

beforeAll(() => {
  if (!paymentAdapterFor("cardpay")) registerPaymentAdapter(cardpay);
});
beforeEach(() => {
  charges.length = 0;
  resetClock();
});

// The answers' JSON is read loosely in assertions.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

async function setup(opts: { paymentToken?: string } = {}) {
  forgetPublisherCache();
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const standard = await insertTestPlan(db, f.group, { title: "Standard", priceCents: 1000, recurring: true });
  const premium = await insertTestPlan(db, f.group, { title: "Premium", priceCents: 1200, recurring: true });
  const lite = await insertTestPlan(db, f.group, { title: "Lite", priceCents: 400, recurring: true });
  const yearly = await insertTestPlan(db, f.group, {
    title: "Yearly",
    priceCents: 9000,
    recurring: true,
    durationUnit: "YEARS",
  });
  const {
    jwt,
    token,
    sub: created,
  } = await insertSelfServiceSubscription(db, { accountId: f.account.id, planId: standard.id, paymentType: "cardpay" });
  const sub = await db.subscription.update({
    where: { id: created.id },
    data: { paymentToken: opts.paymentToken ?? "tok_visa" },
  });
  const page = (handler: Parameters<typeof call>[0], tail: string, body?: unknown) =>
    call(handler, "POST", `/api/member/subscriptions/${sub.id}${tail}`, { subscription_id: String(sub.id) }, body, {
      "X-QT-AUTH": token,
    });
  const client = (handler: Parameters<typeof call>[0], tail: string, body: unknown) =>
    call(
      handler,
      "POST",
      `/api/access/v1/members/me/subscriptions/${sub.id}${tail}?key=${f.key}&accesstype_jwt=${jwt}`,
      { subscription_id: String(sub.id) },
      body,
    );
  return { db, f, standard, premium, lite, yearly, token, sub, page, client };
}

async function read(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe("a recurring switch with proration on", () => {
  it("charges an upgrade's difference now through the stored method, once under concurrent confirms", async () => {
    const s = await setup();
    const res = await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.premium.id });
    const p = await read(res);
    expect(res.status, JSON.stringify(p)).toBe(200);
    const w = p.switch;
    expect(w).toMatchObject({ applies: "now", price_cents: 1200, charged_with: "stored_method", carry_cents: 0 });
    // 10 of 30 days used: the credit is 2/3 of 1000 floored, the rest of Premium 2/3 of 1200 rounded up.
    expect(w.credit_cents).toBe(666);
    expect(w.rest_cents).toBe(800);
    expect(p.chargeable_amount_cents).toBe(134);
    expect(p.needs_payment).toBe(false);
    const periodEnd = s.sub.nextPaymentDueDate!;
    expect(w.next_charge_at).toBe(periodEnd.toISOString());
    expect(p.words).toBe(
      `You pay $1.34 now ($8.00 for Premium for the rest of this period, less $6.66 for the unused part of your plan), and Premium starts today; your next charge of $12.00 is on ${timeInWords(periodEnd, "UTC")}.`,
    );

    const [a, b] = await Promise.all([
      s.page(SWITCH, "/switch", { attempt_token: p.attempt_token }),
      s.page(SWITCH, "/switch", { attempt_token: p.attempt_token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await read(a)).message).toBe("Done: you are now on Premium.");
    // A retried confirm later answers the same and charges nothing more.
    expect((await s.page(SWITCH, "/switch", { attempt_token: p.attempt_token })).status).toBe(200);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amountCents: 134, paymentToken: "tok_visa", currency: "USD" });
    expect(charges[0]!.idempotencyKey).toMatch(/^plan_switch:[0-9a-f-]{36}$/);
    const payments = await s.db.payment.findMany({ where: { subscriptionId: s.sub.id } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amountCents: 134, status: "CAPTURED" });
    expect(payments[0]!.attemptId).toBe(charges[0]!.idempotencyKey.replace("plan_switch:", ""));
    expect(await s.db.invoice.count({ where: { subscriptionId: s.sub.id, amountCents: 134 } })).toBe(1);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after).toMatchObject({
      planId: s.premium.id,
      paymentAmountCents: 1200,
      planAmountCents: 1200,
      creditCents: 0,
    });
    // The period stays: the next charge, of Premium's price, at the old period end.
    expect(after.nextPaymentDueDate?.toISOString()).toBe(periodEnd.toISOString());
    expect(
      await s.db.auditLog.count({ where: { action: "subscription.switch_plan", targetId: String(s.sub.id) } }),
    ).toBe(1);
  });

  it("gives the same terms through the client API, and a declined charge there changes nothing", async () => {
    const s = await setup({ paymentToken: "tok_declined" });
    const pageTerms = await read(
      await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    const res = await s.client(CLIENT_PREVIEW, "/switch_plan/preview", {
      subscription_plan_id: s.premium.id,
      switch_type: "upgrade",
    });
    const p = await read(res);
    expect(res.status, JSON.stringify(p)).toBe(200);
    const same = ["applies", "price_cents", "credit_cents", "rest_cents", "carry_cents", "next_charge_at"];
    for (const k of same) expect(p.switch[k], k).toEqual(pageTerms.switch[k]);
    expect(p.chargeable_amount_cents).toBe(pageTerms.chargeable_amount_cents);

    const declined = await s.client(CLIENT_SWITCH, "/switch_plan", { attempt_token: p.attempt_token });
    const body = await read(declined);
    expect(declined.status).toBe(422);
    expect(body.error.message).toMatch(/declined: The card was declined\. Nothing changed/);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.planId).toBe(s.standard.id);
    expect(await s.db.payment.count({ where: { subscriptionId: s.sub.id } })).toBe(0);
    // The attempt was not used up: with a working card the same preview goes through.
    await s.db.subscription.update({ where: { id: s.sub.id }, data: { paymentToken: "tok_visa" } });
    const ok = await s.client(CLIENT_SWITCH, "/switch_plan", { attempt_token: p.attempt_token });
    expect(ok.status).toBe(200);
    expect((await read(ok)).message).toBe("Subscription plan switched.");
    expect(await s.db.payment.count({ where: { subscriptionId: s.sub.id } })).toBe(1);
  });

  it("carries a downgrade's credit into the next renewal on the test clock, shown on the card and the invoice", async () => {
    const s = await setup();
    // It began with a trial, long over: its checkout's attempt marks only that authorization.
    const checkoutAttempt = await s.db.subscriptionAttempt.create({
      data: {
        id: crypto.randomUUID(),
        accountId: s.f.account.id,
        terms: {},
        paymentType: "cardpay",
        amountCents: 500,
        currency: "USD",
        expiresAt: new Date(),
      },
    });
    await s.db.subscription.update({
      where: { id: s.sub.id },
      data: { attemptId: checkoutAttempt.id, trialEndsAt: new Date(Date.now() - 40 * DAY) },
    });
    const p = await read(await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.lite.id }));
    // Credit 666 for Standard's unused 2/3; Lite for the rest: ceil(2/3 × 400) = 267; carried 399.
    expect(p.switch).toMatchObject({ applies: "now", credit_cents: 666, rest_cents: 267, carry_cents: 399 });
    expect(p.chargeable_amount_cents).toBe(0);
    const periodEnd = s.sub.nextPaymentDueDate!;
    expect(p.switch.next_charge_cents).toBe(1); // 400 − 399
    expect(p.words).toBe(
      `You get a credit of $3.99 on your next charges ($6.66 for the unused part of your plan, less $2.67 for Lite for the rest of this period), and Lite starts today; your next charge of $0.01 is on ${timeInWords(periodEnd, "UTC")}.`,
    );
    expect((await s.page(SWITCH, "/switch", { attempt_token: p.attempt_token })).status).toBe(200);
    expect(charges).toHaveLength(0);
    const switched = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(switched).toMatchObject({ planId: s.lite.id, paymentAmountCents: 400, creditCents: 399 });

    const overview = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token }),
    );
    const card = (overview.subscriptions as Json[]).find((c) => c.id === s.sub.id)!;
    expect(card.credit_cents).toBe(399);
    expect(card.credit).toBe("Credit of $3.99 from a plan change: it comes off your next charges.");
    expect(card.summary).toBe(`Next payment: $0.01 ($4.00 less your credit) on ${timeInWords(periodEnd, "UTC")}.`);

    // The renewal at the period end, on the test clock: 400 − 399 charged, the credit used up.
    await scheduleSubscriptionLifecycle(s.db, { subscriptionId: s.sub.id, now: new Date() });
    setClock(new Date(periodEnd.getTime() + 60_000));
    await runJobsNow(s.db, testJobDeps({ clock: now }));
    expect(charges.map((c) => c.amountCents)).toEqual([1]);
    const renewed = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(renewed.creditCents).toBe(0);
    expect(renewed.nextPaymentDueDate!.getTime()).toBeGreaterThan(periodEnd.getTime());
    const invoice = await s.db.invoice.findFirstOrThrow({ where: { subscriptionId: s.sub.id } });
    expect(invoice).toMatchObject({ creditCents: 399, amountCents: 1, basePriceCents: 400 });
    expect(invoiceToWire(invoice)).toMatchObject({ credit_applied: "3.99", amount_cents: 1, base_price: "4.00" });
    expect(invoiceDocumentModel(invoice, documentLanguage("en", "UTC")).lines).toContainEqual({
      label: "Credit from a plan change",
      amount: "-$3.99",
    });
    // The renewal after it is charged in full.
    setClock(new Date(renewed.nextPaymentDueDate!.getTime() + 60_000));
    await runJobsNow(s.db, testJobDeps({ clock: now }));
    expect(charges.map((c) => c.amountCents)).toEqual([1, 400]);
  });

  it("resets the billing cycle for another interval: a year of Yearly paid now, less the credit", async () => {
    const s = await setup();
    const p = await read(await s.page(SWITCH_PREVIEW, "/switch/preview", { subscription_plan_id: s.yearly.id }));
    expect(p.switch).toMatchObject({ applies: "now", resets_cycle: true, rest_cents: 9000, credit_cents: 666 });
    expect(p.chargeable_amount_cents).toBe(9000 - 666);
    const nextAt = new Date(p.switch.next_charge_at as string);
    expect(nextAt.getTime() - Date.now()).toBeGreaterThan(364 * DAY);
    expect(p.words).toBe(
      `You pay ${money(9000 - 666)} now ($90.00 for 1 year of Yearly, less $6.66 for the unused part of your plan), and Yearly starts today; your next charge of $90.00 is on ${timeInWords(nextAt, "UTC")}.`,
    );
    expect((await s.page(SWITCH, "/switch", { attempt_token: p.attempt_token })).status).toBe(200);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.nextPaymentDueDate?.toISOString()).toBe(nextAt.toISOString());
    expect(after.endTimestamp?.toISOString()).toBe(nextAt.toISOString());
    expect(charges.map((c) => c.amountCents)).toEqual([9000 - 666]);
  });
});
