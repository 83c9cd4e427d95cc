/**
 * Checkout on the server API (X-SUBAUTH), on PGlite and PostgreSQL: a preview and its create, a
 * payment captured or only authorized, a tampered body or attempt token refused, one subscription
 * from one token under concurrent creates, one gateway payment paying once, and the preview's
 * terms kept when the price changes afterwards. Paid flows use testpay (server/testing/checkout.ts),
 * whose verification is a real HMAC check.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment, testpaySignature } from "@/server/testing/checkout";
import {
  ada,
  ok,
  paid,
  previewPaid,
  refused,
  serverCreate,
  serverPreview,
  type Answer,
  type Json,
  type Sub,
} from "@/server/testing/checkout-calls";

const setup = async () => createCheckoutFixture(await getDb());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
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
});
