/**
 * Checkout through its routes (server API, client API, guest checkout, coupon validation,
 * external_subscription_token), on PGlite and PostgreSQL. Paid flows use testpay
 * (server/testing/checkout.ts), whose verification is a real HMAC check.
 */
import { describe, expect, it } from "vitest";

import { POST as VALIDATE } from "@/app/api/access/v1/coupons/validate/route";
import { POST as CLIENT_PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CLIENT_CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { POST as GUEST_PREVIEW } from "@/app/api/access/v1/subscription-without-login/preview/route";
import { POST as GUEST_CREATE } from "@/app/api/access/v1/subscription-without-login/route";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { POST as EXTERNAL_TOKEN } from "@/app/api/v1/subscription_plans/[plan_id]/external_subscription_token.json/route";
import { getDb } from "@/server/db";
import {
  createCheckoutFixture,
  testpayPayment,
  testpaySignature,
  type CheckoutFixture,
} from "@/server/testing/checkout";
import { call, readerJwt } from "@/server/testing/engagement";

type Json = Record<string, unknown>;
type Sub = {
  id: number | null;
  subscriber_id: number | null;
  subscriber: { id: number | null; name?: string | null; subscriber_identities: { provider: string; value: string }[] };
  payment_amount_cents: number;
  start_timestamp: string;
  end_timestamp: string | null;
  [k: string]: unknown;
};
/** A preview's or a create's answer (the fields a test reads). */
type Answer = { subscription: Sub; attempt_token: string; external_reference_id: string; [k: string]: unknown };
type CreateBody = {
  subscription: Json & { payment: Json & { payment_token: string } };
  attempt_token: string;
  [k: string]: unknown;
};
type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const setup = async () => createCheckoutFixture(await getDb());

const ada = { provider: "email", identity: "ada@example.com" };

function serverPreview(f: CheckoutFixture, subscription: Json, extra: Json = {}, who = ada) {
  return call(SERVER_PREVIEW, "POST", "/x", who, { subscription, ...extra }, { "x-subauth": f.serverKey });
}
function serverCreate(f: CheckoutFixture, body: Json, who = ada, key = f.serverKey) {
  return call(SERVER_CREATE, "POST", "/x", who, body, { "x-subauth": key });
}
const paid = (planId: number, amount?: number, currency = "USD") => ({
  subscription_plan_id: planId,
  payment: {
    payment_type: "testpay",
    amount_currency: currency,
    ...(amount === undefined ? {} : { amount_cents: amount }),
  },
});

async function ok<T = Answer>(res: Response, status = 200): Promise<T> {
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(status);
  return body;
}
async function refused(res: Response, status: number, field?: string) {
  const body = (await res.json()) as Err;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(status);
  if (field) expect(body.error.details?.map((d) => d.field)).toContain(field);
  return body;
}

/** Preview a paid plan on the server API, then the body of its create with a captured payment. */
async function previewPaid(
  f: CheckoutFixture,
  planId: number,
  state: "captured" | "authorized" = "captured",
  who = ada,
) {
  const preview = await ok(await serverPreview(f, paid(planId), {}, who));
  const amount = preview.subscription.payment_amount_cents;
  const payment = testpayPayment(preview.external_reference_id, amount, "USD", state);
  const body: CreateBody = {
    subscription: {
      ...paid(planId, amount),
      payment: { ...paid(planId, amount).payment, ...payment },
    },
    attempt_token: preview.attempt_token,
  };
  return { preview, body };
}

describe("server API checkout", () => {
  it("previews, creates an active subscription with a captured payment, and answers a repeat with the same one", async () => {
    const f = await setup();
    const { preview, body } = await previewPaid(f, f.monthly.id);
    expect(preview.attempt_token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(preview.external_reference_id).toMatch(/^order_/);
    expect(preview.subscription).toMatchObject({
      id: null,
      payment_type: "preview",
      subscription_plan_id: f.monthly.id,
      plan_name: "Monthly",
      payment_amount_cents: 1000,
      payment_amount_currency: "USD",
      discount_detail: {},
      subscriber: { id: null, subscriber_identities: [{ provider: "email", value: "ada@example.com" }] },
    });
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(0);

    const made = await ok(await serverCreate(f, body), 201);
    expect(made.subscription).toMatchObject({
      status: "active",
      active: true,
      payment_type: "testpay",
      payment_amount_cents: 1000,
      plan_amount_cents: 1000,
      subscription_type: "standard",
      created_by: "server_api",
      subscription_attempt_id: preview.attempt_token.split(".")[0],
      preferred_identity: { provider: "email", value: "ada@example.com" },
      subscriber: { subscriber_identities: [{ provider: "email", value: "ada@example.com" }] },
    });
    const start = new Date(made.subscription.start_timestamp);
    const end = new Date(made.subscription.end_timestamp as string);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);

    const again = await ok(await serverCreate(f, body), 200);
    expect(again.subscription.id).toBe(made.subscription.id);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(1);
    expect(await f.db.payment.count({ where: { accountId: f.account.id } })).toBe(1);
    const events = await f.db.webhookEvent.findMany({ where: { accountId: f.account.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.name)).toEqual(["subscriber.created", "subscription.created", "subscription.activated"]);
    expect((events[1]!.payload as { subscription: Sub }).subscription.subscriber.id).toBe(
      made.subscription.subscriber_id,
    );
    expect(await f.db.auditLog.count({ where: { accountId: f.account.id, action: "subscription.create" } })).toBe(1);
  });

  it("leaves a subscription pending while the payment is only authorized (no activation event)", async () => {
    const f = await setup();
    const { body } = await previewPaid(f, f.monthly.id, "authorized");
    const made = await ok(await serverCreate(f, body), 201);
    expect(made.subscription).toMatchObject({ status: "pending", active: false });
    const names = (await f.db.webhookEvent.findMany({ where: { accountId: f.account.id } })).map((e) => e.name);
    expect(names).toContain("subscription.created");
    expect(names).not.toContain("subscription.activated");
  });

  it("refuses a tampered amount, plan, currency or coupon at create, naming the field, and creates nothing", async () => {
    const f = await setup();
    const { preview, body } = await previewPaid(f, f.monthly.id);
    const tamper = (patch: Json) => ({ ...body, subscription: { ...body.subscription, ...patch } });
    await refused(
      await serverCreate(f, tamper({ payment: { ...body.subscription.payment, amount_cents: 1 } })),
      422,
      "subscription.payment.amount_cents",
    );
    await refused(
      await serverCreate(f, tamper({ payment: { ...body.subscription.payment, amount_currency: "EUR" } })),
      422,
      "subscription.payment.amount_currency",
    );
    await refused(
      await serverCreate(f, tamper({ subscription_plan_id: f.trial.id })),
      422,
      "subscription.subscription_plan_id",
    );
    await refused(await serverCreate(f, tamper({ coupon_code: "ANY" })), 422, "subscription.coupon_code");
    // A real payment of another amount (the gateway's record) is refused by the adapter.
    const cheap = testpayPayment(preview.external_reference_id, 1, "USD");
    await refused(
      await serverCreate(f, tamper({ payment: { ...body.subscription.payment, ...cheap } })),
      422,
      "subscription.payment.payment_token",
    );
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(0);
    // The untampered create still works: refusals did not use the token.
    await ok(await serverCreate(f, body), 201);
  });

  it("refuses a forged, another account's, expired and reused token", async () => {
    const f = await setup();
    const other = await createCheckoutFixture(f.db);
    const { preview, body } = await previewPaid(f, f.monthly.id);
    const [id, sig] = preview.attempt_token.split(".");
    const flipped = `${id}.${sig!.startsWith("A") ? "B" : "A"}${sig!.slice(1)}`;
    await refused(await serverCreate(f, { ...body, attempt_token: flipped }), 422, "attempt_token");
    await refused(
      await serverCreate(f, { ...body, attempt_token: `${crypto.randomUUID()}.${sig}` }),
      422,
      "attempt_token",
    );
    await refused(await serverCreate(f, body, ada, other.serverKey), 422, "attempt_token");
    await refused(
      await serverCreate(f, body, { provider: "email", identity: "bob@example.com" }),
      422,
      "attempt_token",
    );
    await refused(await serverCreate(f, { subscription: body.subscription }), 400, "body.attempt_token");

    const expired = await previewPaid(f, f.monthly.id);
    await f.db.subscriptionAttempt.update({
      where: { id: expired.preview.attempt_token.split(".")[0] },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const err = await refused(await serverCreate(f, expired.body), 422, "attempt_token");
    expect(err.error.message).toMatch(/expired/);

    await ok(await serverCreate(f, body), 201);
    // Reused with another body (another payment): refused.
    const second = {
      ...body,
      subscription: {
        ...body.subscription,
        payment: { ...body.subscription.payment, ...testpayPayment(preview.external_reference_id, 1000, "USD") },
      },
    };
    const reused = await refused(await serverCreate(f, second), 422, "attempt_token");
    expect(reused.error.message).toMatch(/already been used/);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(1);
  });

  it("makes exactly one subscription from one token under concurrent creates", async () => {
    const f = await setup();
    const { body } = await previewPaid(f, f.monthly.id);
    const responses = await Promise.all(Array.from({ length: 8 }, () => serverCreate(f, body)));
    const statuses = responses.map((r) => r.status).sort();
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Answer[];
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(new Set(bodies.map((b) => b.subscription.id)).size).toBe(1);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(1);
    expect(await f.db.payment.count({ where: { accountId: f.account.id } })).toBe(1);
    expect(await f.db.member.count({ where: { accountId: f.account.id } })).toBe(1);
  });

  it("does not let one gateway payment pay for two attempts", async () => {
    const f = await setup();
    const first = await previewPaid(f, f.monthly.id);
    await ok(await serverCreate(f, first.body), 201);
    const second = await ok(await serverPreview(f, paid(f.monthly.id)));
    // The same gateway payment id, validly signed for the new order: one payment pays once.
    const replay = {
      subscription: {
        ...first.body.subscription,
        payment: {
          ...first.body.subscription.payment,
          signature: testpaySignature(second.external_reference_id, first.body.subscription.payment.payment_token),
        },
      },
      attempt_token: second.attempt_token,
    };
    await refused(await serverCreate(f, replay), 422, "subscription.payment.payment_token");
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(1);
  });

  it("keeps what the preview promised when staff change the price afterwards", async () => {
    const f = await setup();
    const { body } = await previewPaid(f, f.monthly.id);
    await f.db.subscriptionPlan.update({
      where: { id: f.monthly.id },
      data: { priceCents: 2000, title: "Monthly (new)" },
    });
    const made = await ok(await serverCreate(f, body), 201);
    expect(made.subscription).toMatchObject({
      plan_amount_cents: 1000,
      payment_amount_cents: 1000,
      plan_name: "Monthly",
    });
    const fresh = await ok(await serverPreview(f, paid(f.monthly.id)));
    expect(fresh.subscription.payment_amount_cents).toBe(2000);
  });

  it("sells a private group's plan by id on the server API, not on the client API; never another account's plan", async () => {
    const f = await setup();
    const other = await createCheckoutFixture(f.db);
    const manual = { subscription_plan_id: f.privatePlan.id, payment: { payment_type: "manual" } };
    const preview = await ok(await serverPreview(f, manual));
    const made = await ok(await serverCreate(f, { subscription: manual, attempt_token: preview.attempt_token }), 201);
    expect(made.subscription).toMatchObject({ status: "active", payment_type: "manual", group_name: "Staff" });

    const jwt = await readerJwt({ id: "r-private", name: "Pat" });
    await refused(
      await call(
        CLIENT_PREVIEW,
        "POST",
        `/x?key=${f.key}&accesstype_jwt=${jwt}`,
        {},
        { subscription: paid(f.privatePlan.id) },
      ),
      422,
      "subscription.subscription_plan_id",
    );
    await refused(await serverPreview(f, paid(other.monthly.id)), 422, "subscription.subscription_plan_id");
    await refused(
      await serverPreview(f, { ...paid(f.monthly.id), payment: { payment_type: "bitcoin" } }),
      422,
      "subscription.payment.payment_type",
    );
  });

  it("sponsored is active at once on the server API; a reader cannot use it for a priced plan, but may for a free one", async () => {
    const f = await setup();
    const sponsored = { subscription_plan_id: f.monthly.id, payment: { payment_type: "sponsored" } };
    const preview = await ok(await serverPreview(f, sponsored));
    const made = await ok(
      await serverCreate(f, { subscription: sponsored, attempt_token: preview.attempt_token }),
      201,
    );
    expect(made.subscription).toMatchObject({ status: "active", payment_type: "sponsored" });

    const jwt = await readerJwt({ id: "r-sponsor", name: "Sam" });
    const q = `/x?key=${f.key}&accesstype_jwt=${jwt}`;
    await refused(
      await call(CLIENT_PREVIEW, "POST", q, {}, { subscription: sponsored }),
      422,
      "subscription.payment.payment_type",
    );
    const free = { subscription_plan_id: f.free.id, payment: { payment_type: "sponsored" } };
    const p = await ok(await call(CLIENT_PREVIEW, "POST", q, {}, { subscription: free }));
    const c = await ok(
      await call(CLIENT_CREATE, "POST", q, {}, { subscription: free, attempt_token: p.attempt_token }),
      201,
    );
    expect(c.subscription).toMatchObject({ status: "active", payment_amount_cents: 0, created_by: "client_api" });
  });

  it("sells a story by pay per asset, checking the asset against the pricing plan", async () => {
    const f = await setup();
    const dyn = (ids: Json[]) => ({
      subscription_type: "dynamic_asset",
      subscription_plan_id: f.pricing.id,
      payment: { payment_type: "testpay" },
      dynamic_assets: ids,
    });
    await refused(
      await serverPreview(f, dyn([{ id: "3f1c2b9e-0000-4000-8000-000000000000" }])),
      422,
      "dynamic_assets.0.id",
    );
    await f.db.pricingPlan.update({ where: { id: f.pricing.id }, data: { assetIds: [] } });
    await refused(await serverPreview(f, dyn([{ id: "3f1c2b9e-0000-4000-8000-000000000000" }])), 422, "dynamic_assets");
    const preview = await ok(await serverPreview(f, dyn([{ id: f.story.id }])));
    expect(preview.subscription).toMatchObject({ payment_amount_cents: 199, subscription_type: "dynamic_asset" });
    const payment = testpayPayment(preview.external_reference_id, 199, "USD");
    const made = await ok(
      await serverCreate(f, {
        subscription: { ...dyn([{ id: f.story.id }]), payment: { payment_type: "testpay", ...payment } },
        attempt_token: preview.attempt_token,
      }),
      201,
    );
    expect(made.subscription).toMatchObject({
      subscription_type: "dynamic_asset",
      subscription_plan_id: f.pricing.id,
      dynamic_assets: [{ id: f.story.id, type: "story" }],
      end_timestamp: null,
    });
  });

  it("applies a coupon and tax from the request's address, and freezes both", async () => {
    const f = await setup();
    await f.db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "HALF",
        title: "Half",
        discountType: "PERCENT",
        percentOff: 50,
        validFrom: new Date(0),
      },
    });
    await f.db.taxRule.create({ data: { accountId: f.account.id, name: "GST", rateBasisPoints: 1800, country: "IN" } });
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

  it("gives a trial: the authorization amount now, the trial recorded", async () => {
    const f = await setup();
    await refused(
      await serverPreview(f, { ...paid(f.trial.id), trial_period_length: 15, trial_period_unit: "days" }),
      422,
      "subscription.trial_period_length",
    );
    const preview = await ok(
      await serverPreview(f, { ...paid(f.trial.id), trial_period_length: 7, trial_period_unit: "days" }),
    );
    expect(preview.subscription).toMatchObject({
      payment_amount_cents: 500,
      trial_period_length: 7,
      trial_period_unit: "days",
      recurring: true,
    });
    const payment = testpayPayment(preview.external_reference_id, 500, "USD");
    const made = await ok(
      await serverCreate(f, {
        subscription: {
          ...paid(f.trial.id, 500),
          trial_period_length: 7,
          trial_period_unit: "days",
          payment: { payment_type: "testpay", ...payment },
        },
        attempt_token: preview.attempt_token,
      }),
      201,
    );
    expect(made.subscription).toMatchObject({ status: "active", in_trial_period: true, trial_period_length: 7 });
    const skip = await ok(await serverPreview(f, { ...paid(f.trial.id), trial_period: false }));
    expect(skip.subscription).toMatchObject({ payment_amount_cents: 1000, trial_period_length: null });
  });

  it("takes a campaign contribution of the reader's amount and raises the collected amount", async () => {
    const f = await setup();
    await refused(await serverPreview(f, paid(f.campaignPlan.id, 100)), 422, "subscription.payment.amount_cents");
    const preview = await ok(await serverPreview(f, paid(f.campaignPlan.id, 2500), { campaign_id: f.campaign.id }));
    expect(preview.subscription).toMatchObject({
      payment_amount_cents: 2500,
      campaign_subscription: true,
      campaign_id: f.campaign.id,
    });
    const payment = testpayPayment(preview.external_reference_id, 2500, "USD");
    await ok(
      await serverCreate(f, {
        subscription: {
          ...paid(f.campaignPlan.id, 2500),
          payment: { ...paid(f.campaignPlan.id, 2500).payment, ...payment },
        },
        attempt_token: preview.attempt_token,
      }),
      201,
    );
    expect(
      (await f.db.subscriptionGroup.findUniqueOrThrow({ where: { id: f.campaign.id } })).collectedAmountCents,
    ).toBe(2500);
  });
});

describe("client API checkout", () => {
  it("checks out the JWT reader, and refuses its token to another reader", async () => {
    const f = await setup();
    const jwt = await readerJwt({ id: "r-1", name: "Ada", email: "ada@example.com" });
    const q = (j: string) => `/x?key=${f.key}&accesstype_jwt=${j}`;
    const preview = await ok(
      await call(CLIENT_PREVIEW, "POST", q(jwt), {}, { subscription: paid(f.monthly.id, 1000) }),
    );
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const body = {
      subscription: { ...paid(f.monthly.id, 1000), payment: { ...paid(f.monthly.id, 1000).payment, ...payment } },
      attempt_token: preview.attempt_token,
    };
    const other = await readerJwt({ id: "r-2", name: "Bo" });
    await refused(await call(CLIENT_CREATE, "POST", q(other), {}, body), 422, "attempt_token");
    await refused(await call(CLIENT_CREATE, "POST", `/x?key=${f.key}`, {}, body), 401);
    const made = await ok(await call(CLIENT_CREATE, "POST", q(jwt), {}, body), 201);
    expect(made.subscription).toMatchObject({
      status: "active",
      created_by: "client_api",
      preferred_identity: { provider: "publisher", value: "r-1" },
      subscriber: { name: "Ada" },
    });
    // The same JWT reader through svc_jwt is the same subscriber.
    const p2 = await ok(
      await call(CLIENT_PREVIEW, "POST", `/x?key=${f.key}&svc_jwt=${jwt}`, {}, { subscription: paid(f.monthly.id) }),
    );
    expect(p2.subscription.subscriber.id).toBe(made.subscription.subscriber_id);
  });
});

describe("guest checkout", () => {
  it("attaches the e-mail and the phone to one subscriber; mobile_number stays subscription metadata", async () => {
    const f = await setup();
    const guest = { emailAddress: "Gus@Example.com", phoneNumber: "+919876543210" };
    await refused(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { subscription: paid(f.monthly.id) }), 400);
    const sub = { ...paid(f.monthly.id, 1000), metadata: { mobile_number: "+15550000000" } };
    const preview = await ok(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { ...guest, subscription: sub }));
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const body = {
      ...guest,
      subscription: { ...sub, payment: { ...sub.payment, ...payment } },
      attempt_token: preview.attempt_token,
    };
    await refused(
      await call(GUEST_CREATE, "POST", `/x?key=${f.key}`, {}, { ...body, phoneNumber: "+919876543211" }),
      422,
      "attempt_token",
    );
    const made = await ok(await call(GUEST_CREATE, "POST", `/x?key=${f.key}`, {}, body), 201);
    expect(made.subscription).toMatchObject({
      created_by: "guest_checkout",
      metadata: { mobile_number: "+15550000000" },
    });
    expect(made.subscription.subscriber.subscriber_identities).toEqual([
      { provider: "email", value: "gus@example.com" },
      { provider: "phone", value: "+919876543210" },
    ]);
    expect(await f.db.member.count({ where: { accountId: f.account.id } })).toBe(1);

    // The phone alone later finds the same subscriber.
    const p2 = await ok(
      await call(
        GUEST_PREVIEW,
        "POST",
        `/x?key=${f.key}`,
        {},
        { phoneNumber: "+919876543210", subscription: paid(f.free.id) },
      ),
    );
    expect(p2.attempt_token).toBeTruthy();
    // An e-mail of one subscriber with the phone of another: 409.
    await ok(await serverPreview(f, paid(f.monthly.id), {}, { provider: "phone", identity: "+14155550123" }));
    const manual = { subscription_plan_id: f.free.id, payment: { payment_type: "manual" } };
    const pp = await ok(await serverPreview(f, manual, {}, { provider: "phone", identity: "+14155550123" }));
    await ok(
      await serverCreate(
        f,
        { subscription: manual, attempt_token: pp.attempt_token },
        { provider: "phone", identity: "+14155550123" },
      ),
      201,
    );
    const clash = { emailAddress: "gus@example.com", phoneNumber: "+14155550123" };
    const free = { subscription_plan_id: f.free.id, payment: { payment_type: "sponsored" } };
    const cp = await ok(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { ...clash, subscription: free }));
    await refused(
      await call(
        GUEST_CREATE,
        "POST",
        `/x?key=${f.key}`,
        {},
        { ...clash, subscription: free, attempt_token: cp.attempt_token },
      ),
      409,
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
