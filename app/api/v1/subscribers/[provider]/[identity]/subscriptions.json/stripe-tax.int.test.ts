/**
 * Stripe Tax at checkout, by the real routes, against the fake Stripe server reached through the
 * official SDK (server/testing/fake-stripe.ts), on PGlite and PostgreSQL. With the account's Stripe
 * Tax on (saved through the dashboard's procedure):
 * - the preview's tax is Stripe's Tax Calculation for the billing address (not the account's tax
 *   rules), frozen with the calculation's id and the postal code; the PaymentIntent charges
 *   Stripe's total; the invoice's tax lines carry Stripe's rates and amounts, and the revenue report
 *   splits them out;
 * - a tampered tax (the untaxed amount, another attempt token) and another postal code at create
 *   are refused (422), with nothing made;
 * - Stripe Tax inactive on the Stripe account: 422 in words; Stripe down: 503.
 */
import { describe, expect, it } from "vitest";

import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import type { AttemptTerms } from "@/server/subscriptions/checkout/terms";
import { revenueReport } from "@/server/subscriptions/reports/reports";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { now } from "@/server/testing/clock";
import { call } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createTestStaff } from "@/server/testing/staff";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

const stripeAccount = stripeStandIn();

const ada = { provider: "email", identity: "ada-stripe-tax@example.com" };
const address = { country: "us", state: "ny", postal_code: "10001" };
type Body = {
  attempt_token?: string;
  external_reference_id?: string;
  subscription?: {
    id: number | null;
    payment_amount_cents: number;
    total_amount_cents: number;
    tax_amount_cents: number;
  };
  error?: { message: string; details?: { field: string; issue: string }[] };
};

async function setup(options: { stripeTax?: boolean } = {}) {
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fake } = await stripeAccount(db, f.account.id);
  fake.tax.setRates({
    "US/NY": [
      { jurisdiction: "New York", percentage: "4.0", level: "state" },
      { jurisdiction: "New York City", percentage: "4.875", level: "city" },
    ],
  });
  // The owner turns Stripe Tax on in the dashboard (the keys saved are kept).
  const owner = await createTestStaff(db, { roles: ["OWNER"], account: f.account.id });
  const saved = await owner.caller.paymentGateways.save({
    provider: "stripe",
    environment: "sandbox",
    appKey: fake.publishableKey,
    stripeTax: options.stripeTax ?? true,
  });
  expect(saved).toMatchObject({ stripeTax: options.stripeTax ?? true, stripeTaxInclusive: false });
  // A tax rule of the account for the US (10 %, added): Stripe Tax's tax is used instead of it.
  await db.taxRule.create({
    data: { accountId: f.account.id, name: "US tax", rateBasisPoints: 1000, country: "US", inclusive: false },
  });
  const post = async (route: typeof SERVER_PREVIEW, body: Record<string, unknown>) => {
    const res = await call(route, "POST", "/x", ada, body, { "x-subauth": f.serverKey });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const payment = { payment_type: "stripe", amount_currency: "USD" };
  const subscription = { subscription_plan_id: f.monthly.id, payment, metadata: { address } };
  const preview = (sub: Record<string, unknown> = subscription) => post(SERVER_PREVIEW, { subscription: sub });
  const create = (sub: Record<string, unknown>, token: string) =>
    post(SERVER_CREATE, { subscription: sub, attempt_token: token });
  return { db, f, fake, owner, preview, create, subscription, payment };
}

describe("checkout with Stripe Tax", () => {
  it("charges Stripe's tax, freezes it, and prints Stripe's rates and amounts on the invoice and in the report", async () => {
    const { db, f, fake, preview, create, subscription, payment } = await setup();
    const previewed = await preview();
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    // 1000 + 4 % (40) + 4.875 % (48.75 → Stripe's 49), not the account's 10 % rule.
    expect(previewed.body.subscription).toMatchObject({
      payment_amount_cents: 1089,
      total_amount_cents: 1089,
      tax_amount_cents: 89,
    });
    const calc = fake.calls.find((c) => c.path === "/v1/tax/calculations")!;
    expect(calc.params).toMatchObject({
      currency: "usd",
      line_items: [{ amount: "1000", reference: `plan_${f.monthly.id}`, tax_behavior: "exclusive" }],
      customer_details: { address: { country: "US", state: "NY", postal_code: "10001" }, address_source: "billing" },
    });
    const attempt = await db.subscriptionAttempt.findFirstOrThrow({ where: { accountId: f.account.id } });
    const terms = attempt.terms as unknown as AttemptTerms;
    expect(terms.stripe_tax_calculation).toMatch(/^taxcalc_/);
    expect(terms.tax_location).toEqual({ country: "US", region: "NY", postal_code: "10001" });
    expect(attempt.amountCents).toBe(1089);
    const pi = previewed.body.external_reference_id!;
    expect(fake.state.paymentIntents.get(pi)!.amount).toBe(1089);

    fake.pay(pi, "succeeded");
    const made = await create(
      { ...subscription, payment: { ...payment, amount_cents: 1089, payment_token: pi } },
      previewed.body.attempt_token!,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: made.body.subscription!.id! } });
    expect(row).toMatchObject({ status: "ACTIVE", paymentAmountCents: 1089, taxAmountCents: 89 });

    await runJobsNow(db, testJobDeps({ clock: now }));
    const invoice = await db.invoice.findFirstOrThrow({ where: { subscriptionId: row.id } });
    expect(invoice).toMatchObject({ amountCents: 1089, netCents: 1000, roundOffCents: 0 });
    expect(invoice.taxLines).toEqual([
      { name: "New York Sales Tax", rate_basis_points: 400, rate_percentage: "4", amount_cents: 40, inclusive: false },
      {
        name: "New York City Sales Tax",
        rate_basis_points: 488,
        rate_percentage: "4.875",
        amount_cents: 49,
        inclusive: false,
      },
    ]);

    const day = (offset: number) => new Date(now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await revenueReport(db, { accountId: f.account.id, range: { from: day(-1), to: day(1) } });
    expect(report.days.filter((d) => d.currency === "USD")).toEqual([
      expect.objectContaining({ captured_cents: 1089, tax_cents: 89, net_excluding_tax_cents: 1000 }),
    ]);
  });

  it("refuses a tampered tax and another postal code at create, making nothing", async () => {
    const { db, f, fake, preview, create, subscription, payment } = await setup();
    const previewed = await preview();
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    const pi = previewed.body.external_reference_id!;
    fake.pay(pi, "succeeded");
    const token = previewed.body.attempt_token!;
    const paid = { ...payment, amount_cents: 1089, payment_token: pi };

    // The untaxed amount: refused like a tampered price.
    let res = await create({ ...subscription, payment: { ...paid, amount_cents: 1000 } }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.message).toMatch(/differs from the preview \(1089\)/);
    // A forged token (the tax is in the attempt it signs: another signature is no attempt).
    res = await create({ ...subscription, payment: paid }, `${token.split(".")[0]}.${"A".repeat(43)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.details?.[0]?.field).toBe("attempt_token");
    // Another postal code than the one Stripe taxed.
    res = await create(
      { ...subscription, payment: paid, metadata: { address: { ...address, postal_code: "10002" } } },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.details).toContainEqual({
      field: "subscription.metadata",
      issue: "differs from the preview (tax of US/NY/10001)",
    });
    expect(await db.subscription.count({ where: { accountId: f.account.id } })).toBe(0);

    // The untampered create works.
    res = await create({ ...subscription, payment: paid }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("says so when Stripe Tax is not active on the Stripe account, or no address was sent (422), after the other checks", async () => {
    const { db, f, fake, preview, subscription } = await setup();
    // A preview refused for another reason (a trial the plan has not) asks Stripe for no calculation.
    let res = await preview({ ...subscription, trial_period: true });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(fake.calls.some((c) => c.path === "/v1/tax/calculations")).toBe(false);
    fake.tax.setActive(false);
    res = await preview();
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.message).toMatch(/Stripe Tax is not active on the publisher's Stripe account/);
    expect(res.body.error?.message).toMatch(/Settings → Tax/);
    fake.tax.setActive(true);
    res = await preview({ ...subscription, metadata: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.details).toEqual([
      { field: "subscription.metadata.address.country", issue: "is required for Stripe Tax" },
    ]);
    // A US address without a postal code: Stripe cannot place it.
    res = await preview({ ...subscription, metadata: { address: { country: "US", state: "NY" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error?.message).toMatch(/postal_code/);
    expect(await db.subscriptionAttempt.count({ where: { accountId: f.account.id } })).toBe(0);
  });

  it("answers 503 when Stripe cannot be reached", async () => {
    const { db, f, fake, preview } = await setup();
    // The SDK's two retries fail too.
    fake.failNext(3, 500);
    const res = await preview();
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error?.message).toMatch(/Stripe could not be reached to compute the tax/);
    expect(await db.subscriptionAttempt.count({ where: { accountId: f.account.id } })).toBe(0);
  });

  it("keeps the account's tax rules while Stripe Tax is off", async () => {
    const { fake, preview } = await setup({ stripeTax: false });
    const res = await preview();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.subscription).toMatchObject({ total_amount_cents: 1100, tax_amount_cents: 100 });
    expect(fake.calls.some((c) => c.path.startsWith("/v1/tax/"))).toBe(false);
  });
});
