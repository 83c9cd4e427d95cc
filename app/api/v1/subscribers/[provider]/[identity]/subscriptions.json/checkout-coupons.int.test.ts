/**
 * Coupons and tax at checkout, on PGlite and PostgreSQL: a coupon and the tax of the request's
 * address applied and frozen, a tampered tax (the untaxed amount, a payment of it, another
 * address at create) refused like a tampered price, a coupon's limits (in all, per subscriber)
 * held when creates race, a coupon validated for a plan; and external_subscription_token (deprecated), answering the
 * attempt's gateway order. Paid flows use testpay (server/testing/checkout.ts).
 */
import { describe, expect, it } from "vitest";

import { POST as VALIDATE } from "@/app/api/access/v1/coupons/validate/route";
import { POST as EXTERNAL_TOKEN } from "@/app/api/v1/subscription_plans/[plan_id]/external_subscription_token.json/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment } from "@/server/testing/checkout";
import {
  halfOffAndGst,
  ok,
  paid,
  previewPaid,
  refused,
  serverCreate,
  serverPreview,
  type Err,
  type Json,
} from "@/server/testing/checkout-calls";
import { call } from "@/server/testing/engagement";

const setup = async () => createCheckoutFixture(await getDb());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("server API checkout", () => {
  it("applies a coupon and tax from the request's address, and freezes both", async () => {
    const f = await setup();
    await halfOffAndGst(f);
    const sub = { ...paid(f.monthly.id), coupon_code: "half", metadata: { address: { country: "IN", city: "Pune" } } };
    const preview = await ok(await serverPreview(f, sub));
    expect(preview.subscription).toMatchObject({
      coupon_code: "HALF",
      payment_amount_cents: 590,
      tax_amount_cents: 90,
      discount_detail: {
        code: "HALF",
        discount_type: "percent",
        value: 50,
        price_cents: 1000,
        discounted_price_cents: 500,
      },
    });
    const payment = testpayPayment(preview.external_reference_id, 590, "USD");
    const made = await ok(
      await serverCreate(f, {
        subscription: { ...sub, payment: { ...sub.payment, amount_cents: 590, ...payment } },
        attempt_token: preview.attempt_token,
      }),
      201,
    );
    expect(made.subscription).toMatchObject({
      payment_amount_cents: 590,
      coupon_code: "HALF",
      metadata: { address: { country: "IN" } },
    });
    expect((await f.db.coupon.findFirstOrThrow({ where: { accountId: f.account.id } })).redemptionsCount).toBe(1);
    expect(await f.db.couponRedemption.count({ where: { accountId: f.account.id } })).toBe(1);
    // Without an Indian address, no tax.
    const plain = await ok(
      await serverPreview(f, paid(f.monthly.id), {}, { provider: "email", identity: "cy@example.com" }),
    );
    expect(plain.subscription.payment_amount_cents).toBe(1000);
  });

  it("refuses a tampered tax at create like a tampered price, and creates nothing", async () => {
    const f = await setup();
    await f.db.taxRule.create({ data: { accountId: f.account.id, name: "GST", rateBasisPoints: 1800, country: "IN" } });
    await f.db.taxRule.create({
      data: { accountId: f.account.id, name: "VAT", rateBasisPoints: 2000, country: "FR", inclusive: true },
    });
    const india = { address: { country: "IN", city: "Pune" } };
    const sub = { ...paid(f.monthly.id), metadata: india };
    const preview = await ok(await serverPreview(f, sub));
    // GST 18% on top of 10.00 USD: 11.80, 1.80 of it tax, frozen in the attempt.
    expect(preview.subscription).toMatchObject({ payment_amount_cents: 1_180, tax_amount_cents: 180 });
    const create = (subscription: Json) => serverCreate(f, { subscription, attempt_token: preview.attempt_token });
    const payment = testpayPayment(preview.external_reference_id, 1_180, "USD");
    const taxed = { ...sub, payment: { ...sub.payment, amount_cents: 1_180, ...payment } };

    // The untaxed price as the amount: refused as a changed price is, naming the field.
    let err = await refused(
      await create({ ...taxed, payment: { ...taxed.payment, amount_cents: 1_000 } }),
      422,
      "subscription.payment.amount_cents",
    );
    expect(err.error.message).toMatch(/differs from the preview \(1180\)/);
    // A real payment of the untaxed amount (the gateway's record): refused by the adapter.
    const untaxed = testpayPayment(preview.external_reference_id, 1_000, "USD");
    await refused(
      await create({ ...sub, payment: { ...sub.payment, ...untaxed } }),
      422,
      "subscription.payment.payment_token",
    );
    // Another address at create than the tax was computed for (no GST; VAT inside the price):
    // refused, naming the address and the country the preview taxed.
    for (const elsewhere of [{ country: "US" }, { country: "fr", city: "Lyon" }]) {
      err = await refused(await create({ ...taxed, metadata: { address: elsewhere } }), 422, "subscription.metadata");
      expect(err.error.message).toMatch(/differs from the preview \(tax of IN\)/);
    }
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(0);
    expect(await f.db.payment.count({ where: { accountId: f.account.id } })).toBe(0);
    expect(await f.db.subscriptionAttempt.count({ where: { accountId: f.account.id, usedAt: { not: null } } })).toBe(0);

    // The untampered create (the same address, or none: the preview's stands) works.
    const made = await ok(await create({ ...taxed, metadata: { address: { country: "in", city: "Pune" } } }), 201);
    expect(made.subscription).toMatchObject({ payment_amount_cents: 1_180, tax_amount_cents: 180 });
    const row = await f.db.subscription.findFirstOrThrow({ where: { accountId: f.account.id } });
    expect(row.taxDetail).toMatchObject([
      { name: "GST", rate_basis_points: 1800, amount_cents: 180, inclusive: false },
    ]);
  });

  it("lets a coupon be redeemed only up to its limit when creates race", async () => {
    const f = await setup();
    await f.db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "TWO",
        discountType: "PERCENT",
        percentOff: 10,
        validFrom: new Date(0),
        maxRedemptions: 2,
      },
    });
    const readers = Array.from({ length: 5 }, (_, i) => ({ provider: "email", identity: `r${i}@example.com` }));
    const bodies = await Promise.all(
      readers.map(async (who) => {
        const preview = await ok(await serverPreview(f, { ...paid(f.monthly.id), coupon_code: "TWO" }, {}, who));
        const payment = testpayPayment(preview.external_reference_id, 900, "USD");
        return {
          who,
          body: {
            subscription: {
              ...paid(f.monthly.id, 900),
              coupon_code: "TWO",
              payment: { payment_type: "testpay", ...payment },
            },
            attempt_token: preview.attempt_token,
          },
        };
      }),
    );
    const responses = await Promise.all(bodies.map(({ who, body }) => serverCreate(f, body, who)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 422)).toHaveLength(3);
    for (const r of responses.filter((r) => r.status === 422))
      expect(((await r.json()) as Err).error.details?.[0]?.field).toBe("subscription.coupon_code");
    expect((await f.db.coupon.findFirstOrThrow({ where: { accountId: f.account.id } })).redemptionsCount).toBe(2);
    expect(await f.db.couponRedemption.count({ where: { accountId: f.account.id } })).toBe(2);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(2);
  });

  it("holds a coupon's per-subscriber limit when one subscriber's creates race", async () => {
    const f = await setup();
    await f.db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "ONCE",
        discountType: "PERCENT",
        percentOff: 10,
        validFrom: new Date(0),
        maxRedemptionsPerSubscriber: 1,
      },
    });
    // The subscriber exists first (its own free subscription), then previews twice.
    const manual = { subscription_plan_id: f.free.id, payment: { payment_type: "manual" } };
    const first = await ok(await serverPreview(f, manual));
    await ok(await serverCreate(f, { subscription: manual, attempt_token: first.attempt_token }), 201);
    const bodies = await Promise.all(
      [1, 2, 3].map(async () => {
        const preview = await ok(await serverPreview(f, { ...paid(f.monthly.id), coupon_code: "ONCE" }));
        const payment = testpayPayment(preview.external_reference_id, 900, "USD");
        return {
          subscription: {
            ...paid(f.monthly.id, 900),
            coupon_code: "ONCE",
            payment: { payment_type: "testpay", ...payment },
          },
          attempt_token: preview.attempt_token,
        };
      }),
    );
    const statuses = (await Promise.all(bodies.map((body) => serverCreate(f, body)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422]);
    expect(await f.db.couponRedemption.count({ where: { accountId: f.account.id } })).toBe(1);
    // Its next preview with the coupon is refused at once.
    await refused(
      await serverPreview(f, { ...paid(f.monthly.id), coupon_code: "ONCE" }),
      422,
      "subscription.coupon_code",
    );
  });
});

describe("coupon validation and external_subscription_token", () => {
  it("validates a coupon for a plan, or names why not", async () => {
    const f = await setup();
    await f.db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "WELCOME20",
        title: "Welcome",
        discountType: "PERCENT",
        percentOff: 20,
        validFrom: new Date(0),
      },
    });
    const v = await ok(
      await call(
        VALIDATE,
        "POST",
        `/x?key=${f.key}`,
        {},
        { subscription_plan_id: f.monthly.id, coupon_code: "welcome20", currency: "EUR" },
      ),
    );
    expect(v).toMatchObject({
      valid: true,
      coupon_code: "WELCOME20",
      price_cents: 900,
      discounted_price_cents: 720,
      price_currency: "EUR",
      discount_detail: { code: "WELCOME20", value: 20 },
    });
    await refused(
      await call(VALIDATE, "POST", `/x?key=${f.key}`, {}, { subscription_plan_id: f.monthly.id, coupon_code: "NOPE" }),
      422,
      "coupon_code",
    );
    await refused(
      await call(
        VALIDATE,
        "POST",
        `/x?key=${f.key}`,
        {},
        { subscription_plan_id: f.privatePlan.id, coupon_code: "WELCOME20" },
      ),
      422,
      "subscription_plan_id",
    );
  });

  it("answers external_subscription_token with the gateway id and a Deprecation header", async () => {
    const f = await setup();
    const { preview } = await previewPaid(f, f.monthly.id);
    const res = await call(
      EXTERNAL_TOKEN,
      "POST",
      "/x",
      { plan_id: String(f.monthly.id) },
      { type: "testpay", attempt_token: preview.attempt_token },
      { "x-subauth": f.serverKey },
    );
    expect(res.headers.get("deprecation")).toBe("true");
    expect(await ok(res)).toEqual({ subscription: { id: preview.external_reference_id } });
    const fresh = await ok(
      await call(
        EXTERNAL_TOKEN,
        "POST",
        "/x",
        { plan_id: String(f.monthly.id) },
        { type: "testpay" },
        { "x-subauth": f.serverKey },
      ),
    );
    expect(fresh.subscription.id).toMatch(/^order_/);
  });
});
