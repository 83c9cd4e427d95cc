/**
 * Checkout of each kind of plan on the server API, on PGlite and PostgreSQL: a private group's
 * plan (sold by id on the server API, not on the client API), sponsored, pay per asset, a trial
 * and a campaign contribution. Paid flows use testpay (server/testing/checkout.ts), whose
 * verification is a real HMAC check.
 */
import { describe, expect, it } from "vitest";

import { POST as CLIENT_PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CLIENT_CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment } from "@/server/testing/checkout";
import { ok, paid, refused, serverCreate, serverPreview, type Json } from "@/server/testing/checkout-calls";
import { call, readerJwt } from "@/server/testing/engagement";

const setup = async () => createCheckoutFixture(await getDb());

describe("server API checkout", () => {
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
