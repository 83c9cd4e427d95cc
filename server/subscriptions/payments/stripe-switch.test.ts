/**
 * The Stripe adapter's plan changes (stripe-switch.ts) against the fake Stripe server, through the
 * official SDK, on a 30-day subscription of 1000 switched 10 days in (two thirds unused): Stripe's
 * quote at a frozen proration date (credit 667, the new 1200 for the rest 800: 133 now), the
 * change charged once however often it is asked, a declined card or another amount changing
 * nothing, a change from the next period (nothing charged now; another interval refused), a new
 * interval's new period, and Stripe unreachable.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startFakeStripe, type FakeStripe } from "../../testing/fake-stripe";
import { fakeStripeAdapter, fakeStripeCredentials } from "../../testing/fake-stripe-adapter";
import { PaymentAdapterError, type GatewayCredentials, type GatewayPlanChange } from "./adapter";

const DAY = 86_400;
let nowMs = Date.parse("2026-03-01T00:00:00Z");
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ clock: () => nowMs });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  nowMs = Date.parse("2026-03-01T00:00:00Z");
});

const adapter = () => fakeStripeAdapter(fake);
const creds = (over: Partial<GatewayCredentials> = {}) => fakeStripeCredentials(fake, over);
let attempt = 0;
const uuid = () => `1a2b3c4d-0000-4000-8000-${String(++attempt).padStart(12, "0")}`;

/** A paid 30-day Stripe subscription of 1000 made as checkout makes it, and the clock 10 days on. */
async function paidSubscription(card: { last4?: string } = {}) {
  const prepared = await adapter().preparePayment(creds(), {
    accountId: 7,
    attemptId: uuid(),
    amountCents: 1000,
    periodCents: 1000,
    currency: "USD",
    recurring: true,
    period: { length: 30, unit: "DAYS" },
    plan: { id: 3, title: "Standard" },
    subscriber: { id: 1, name: null, email: null, phone: null },
  });
  const id = prepared.externalReferenceId!;
  const sub = fake.state.subscriptions.get(id)!;
  fake.pay(fake.state.invoices.get(sub.latest_invoice as string)!.payment_intent_id as string, "succeeded", card);
  const item = (sub.items as { data: Record<string, unknown>[] }).data[0]!;
  const start = item.current_period_start as number;
  nowMs = (start + 10 * DAY) * 1000;
  return { id, sub, item, start, at: start + 10 * DAY };
}

const change = (gatewayReference: string, over: Partial<GatewayPlanChange> = {}): GatewayPlanChange => ({
  accountId: 7,
  subscriptionId: 1,
  attemptId: uuid(),
  gatewayReference,
  currency: "USD",
  plan: { id: 4, title: "Premium", metadata: null },
  priceCents: 1200,
  period: { length: 30, unit: "DAYS" },
  fromPeriod: { length: 30, unit: "DAYS" },
  periodEnd: null,
  ...over,
});
const updates = (id: string) => fake.calls.filter((c) => c.method === "POST" && c.path === `/v1/subscriptions/${id}`);
const switchInvoices = () =>
  [...fake.state.invoices.values()].filter((i) => i.billing_reason === "subscription_update");
const priceOf = (item: Record<string, unknown>) => (item.price as { unit_amount: number }).unit_amount;

describe("Stripe plan changes now, with Stripe's proration", () => {
  it("quotes Stripe's proration at the frozen date: the unused time credited, the rest on the new price", async () => {
    const s = await paidSubscription();
    const c = change(s.id);
    const quote = await adapter().quotePlanChange!(creds(), c, s.at);
    expect(quote).toEqual({
      prorationDate: s.at,
      amountCents: 800 - 667,
      creditCents: 667,
      restCents: 800,
      resetsCycle: false,
      nextChargeAt: new Date((s.start + 30 * DAY) * 1000),
    });
    const call = fake.calls.find((x) => x.path === "/v1/invoices/create_preview")!;
    expect(call.params).toMatchObject({
      subscription: s.id,
      subscription_details: {
        items: [{ id: s.item.id, price_data: { unit_amount: "1200", currency: "usd", product: "masthead_7_plan_4" } }],
        proration_behavior: "always_invoice",
        proration_date: String(s.at),
      },
    });
    // A preview changes nothing.
    expect(priceOf(s.item)).toBe(1000);
    expect(switchInvoices()).toHaveLength(0);
  });

  it("charges the quoted amount once however often it is asked, and moves the item to the new price", async () => {
    const s = await paidSubscription();
    const c = change(s.id);
    const timing = { when: "now" as const, prorationDate: s.at, expectedCents: 133 };
    nowMs += 60_000; // the confirm comes a minute after the preview: the frozen date still rules
    const first = await adapter().changePlan!(creds(), c, timing);
    const again = await adapter().changePlan!(creds(), c, timing);
    expect(first).toEqual(again);
    const invoices = switchInvoices();
    expect(invoices).toHaveLength(1);
    expect(first).toMatchObject({
      status: "changed",
      charge: { externalPaymentId: invoices[0]!.id, amountCents: 133 },
      nextChargeAt: new Date((s.start + 30 * DAY) * 1000),
    });
    expect(invoices[0]).toMatchObject({ status: "paid", amount_paid: 133, total: 133 });
    expect(priceOf(s.item)).toBe(1200);
    const calls = updates(s.id);
    expect(new Set(calls.map((x) => x.idempotencyKey))).toEqual(new Set([`masthead-switch-${c.attemptId}`]));
    expect(calls[0]!.params).toMatchObject({
      proration_behavior: "always_invoice",
      proration_date: String(s.at),
      payment_behavior: "pending_if_incomplete",
    });
  });

  it("a declined card changes nothing: the pending update's invoice is voided, and Stripe's reason given", async () => {
    const s = await paidSubscription({ last4: "0002" });
    const result = await adapter().changePlan!(creds(), change(s.id), {
      when: "now",
      prorationDate: s.at,
      expectedCents: 133,
    });
    expect(result).toEqual({ status: "failed", reason: "Your card has insufficient funds." });
    expect(priceOf(s.item)).toBe(1000);
    expect(s.sub.pending_update).toBeNull();
    expect(switchInvoices().map((i) => i.status)).toEqual(["void"]);
  });

  it("refuses before any change when Stripe would now charge another amount than previewed", async () => {
    const s = await paidSubscription();
    const result = await adapter().changePlan!(creds(), change(s.id), {
      when: "now",
      prorationDate: s.at,
      expectedCents: 100,
    });
    expect(result).toMatchObject({ status: "failed" });
    expect(result.status === "failed" && result.reason).toMatch(/charge 133 instead of the 100 previewed/);
    expect(updates(s.id)).toHaveLength(0);
    expect(priceOf(s.item)).toBe(1000);
  });

  it("another interval starts a new period now: the unused time credited, a year of the new price charged", async () => {
    const s = await paidSubscription();
    const c = change(s.id, { priceCents: 9000, period: { length: 1, unit: "YEARS" } });
    const quote = await adapter().quotePlanChange!(creds(), c, s.at);
    const yearOn = new Date(s.at * 1000);
    yearOn.setUTCFullYear(yearOn.getUTCFullYear() + 1);
    expect(quote).toMatchObject({ amountCents: 9000 - 667, creditCents: 667, restCents: 9000, resetsCycle: true });
    expect(quote.nextChargeAt).toEqual(yearOn);
    const result = await adapter().changePlan!(creds(), c, { when: "now", prorationDate: s.at, expectedCents: 8333 });
    expect(result).toMatchObject({ status: "changed", charge: { amountCents: 8333 }, nextChargeAt: yearOn });
    expect(s.item).toMatchObject({ current_period_start: s.at, current_period_end: yearOn.getTime() / 1000 });
  });

  it("says Stripe is unreachable, and a plan's stripe_price_id of another amount is refused", async () => {
    const s = await paidSubscription();
    fake.failNext(5, 500);
    const down = await adapter().quotePlanChange!(creds(), change(s.id), s.at).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(PaymentAdapterError);
    expect((down as PaymentAdapterError).kind).toBe("unavailable");
    fake.failNext(0);
    const price = [...fake.state.prices.values()][0]!; // the subscription's 1000 price
    const wrong = await adapter().quotePlanChange!(
      creds(),
      change(s.id, { plan: { id: 4, title: "Premium", metadata: { stripe_price_id: price.id } } }),
      s.at,
    ).catch((e: unknown) => e);
    expect((wrong as PaymentAdapterError).kind).toBe("invalid");
    expect((wrong as Error).message).toMatch(/not a recurring 1200 USD/);
  });
});

describe("Stripe plan changes from the next period", () => {
  it("moves the item to the new price with no proration: nothing charged now, the next invoice the new price", async () => {
    const s = await paidSubscription();
    const c = change(s.id, { priceCents: 400 });
    expect(adapter().planChangeRefusal!(c, "next_period")).toBeNull();
    const result = await adapter().changePlan!(creds(), c, { when: "next_period" });
    expect(result).toEqual({ status: "changed", charge: null, nextChargeAt: new Date((s.start + 30 * DAY) * 1000) });
    expect(updates(s.id)[0]!.params).toMatchObject({ proration_behavior: "none" });
    expect(switchInvoices()).toHaveLength(0);
    expect(priceOf(s.item)).toBe(400);
    expect(fake.renew(s.id, "paid").invoice).toMatchObject({ amount_paid: 400 });
  });

  it("refuses another billing interval, which Stripe would charge at once", async () => {
    const s = await paidSubscription();
    const c = change(s.id, { priceCents: 9000, period: { length: 1, unit: "YEARS" } });
    expect(adapter().planChangeRefusal!(c, "next_period")).toMatch(/cannot wait for the period's end/);
    const refused = await adapter().changePlan!(creds(), c, { when: "next_period" }).catch((e: unknown) => e);
    expect((refused as PaymentAdapterError).kind).toBe("invalid");
    expect(updates(s.id)).toHaveLength(0);
  });
});
