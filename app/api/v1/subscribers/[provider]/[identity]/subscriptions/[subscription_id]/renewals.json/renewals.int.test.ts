/**
 * Renewals through their route (spec §4.2 renewals.json, rule 3), on PGlite and PostgreSQL: the
 * payment goes through testpay's adapter (a real HMAC check), the same renewal repeated or sent in
 * parallel makes one subscription.
 */
import { describe, expect, it } from "vitest";

import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment, type CheckoutFixture } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";

import { POST as RENEW } from "./route";

type Sub = {
  id: number;
  status: string;
  start_timestamp: string;
  end_timestamp: string | null;
  metadata: Record<string, unknown>;
  payment_amount_cents: number;
  subscription_plan_id: number;
};
type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const ada = { provider: "email", identity: "ada@example.com" };

async function subscribe(f: CheckoutFixture, planId: number, metadata: Record<string, unknown> = {}) {
  const sub = { subscription_plan_id: planId, payment: { payment_type: "testpay", amount_currency: "USD" }, metadata };
  const res = await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription: sub }, { "x-subauth": f.serverKey });
  const preview = (await res.json()) as {
    subscription: Sub;
    attempt_token: string;
    external_reference_id: string;
  };
  expect(res.status, JSON.stringify(preview)).toBe(200);
  const amount = preview.subscription.payment_amount_cents;
  const payment = testpayPayment(preview.external_reference_id, amount, "USD");
  const made = await call(
    SERVER_CREATE,
    "POST",
    "/x",
    ada,
    {
      subscription: { ...sub, payment: { ...sub.payment, amount_cents: amount, ...payment } },
      attempt_token: preview.attempt_token,
    },
    { "x-subauth": f.serverKey },
  );
  const body = (await made.json()) as { subscription: Sub };
  expect(made.status, JSON.stringify(body)).toBe(201);
  return body.subscription;
}

/** A renewal body paid with testpay against an order the publisher's back end made. */
function renewalBody(amount: number, extra: Record<string, unknown> = {}) {
  const order = `order_renewal_${Math.random().toString(36).slice(2)}`;
  const payment = testpayPayment(order, amount, "USD");
  return {
    subscription: {
      payment: {
        payment_type: "testpay",
        amount_cents: amount,
        amount_currency: "USD",
        external_reference_id: order,
        ...payment,
      },
      ...extra,
    },
  };
}

function renew(f: CheckoutFixture, id: number, body: unknown, who = ada) {
  return call(RENEW, "POST", "/x", { ...who, subscription_id: String(id) }, body, { "x-subauth": f.serverKey });
}

describe("POST …/subscriptions/<id>/renewals.json", () => {
  it("renews an active subscription from its end, copies metadata, emits subscription.renewed, and is idempotent", async () => {
    const f = await createCheckoutFixture(await getDb());
    const current = await subscribe(f, f.monthly.id, { seat: "A1" });
    const body = renewalBody(1000);

    const res = await renew(f, current.id, body);
    const made = (await res.json()) as { subscription: Sub };
    expect(res.status, JSON.stringify(made)).toBe(201);
    expect(made.subscription).toMatchObject({
      subscription_plan_id: f.monthly.id,
      status: "active",
      payment_amount_cents: 1000,
      metadata: { seat: "A1" },
    });
    expect(made.subscription.id).not.toBe(current.id);
    expect(made.subscription.start_timestamp).toBe(current.end_timestamp);
    expect(new Date(made.subscription.end_timestamp!).getTime()).toBeGreaterThan(
      new Date(current.end_timestamp!).getTime(),
    );

    const again = await renew(f, current.id, body);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { subscription: Sub }).subscription.id).toBe(made.subscription.id);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(2);
    expect(await f.db.payment.count({ where: { accountId: f.account.id } })).toBe(2);
    const names = (
      await f.db.webhookEvent.findMany({ where: { accountId: f.account.id }, orderBy: { id: "asc" } })
    ).map((e) => e.name);
    expect(names.filter((n) => n === "subscription.renewed")).toHaveLength(1);
    expect(await f.db.auditLog.count({ where: { accountId: f.account.id, action: "subscription.renew" } })).toBe(1);
  });

  it("makes one subscription of the same renewal sent five times in parallel", async () => {
    const f = await createCheckoutFixture(await getDb());
    const current = await subscribe(f, f.monthly.id);
    const body = renewalBody(1000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => renew(f, current.id, body)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(
      await Promise.all(answers.map(async (r) => ((await r.json()) as { subscription: Sub }).subscription.id)),
    );
    expect(ids.size).toBe(1);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(2);
  });

  it("starts now when the renewed subscription has ended, and takes new metadata when given", async () => {
    const f = await createCheckoutFixture(await getDb());
    const current = await subscribe(f, f.monthly.id, { seat: "A1" });
    const past = new Date(Date.now() - 86_400_000);
    await f.db.subscription.update({
      where: { id: current.id },
      data: { startTimestamp: new Date(past.getTime() - 30 * 86_400_000), endTimestamp: past },
    });
    const before = Date.now();
    const res = await renew(f, current.id, renewalBody(1000, { metadata: { seat: "B2" } }));
    const made = (await res.json()) as { subscription: Sub };
    expect(res.status, JSON.stringify(made)).toBe(201);
    expect(new Date(made.subscription.start_timestamp).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(made.subscription.metadata).toEqual({ seat: "B2" });
  });

  it("refuses recurring subscriptions, a wrong amount, a missing payment_token and another subscriber's id", async () => {
    const f = await createCheckoutFixture(await getDb());
    const current = await subscribe(f, f.monthly.id);
    await f.db.subscription.update({ where: { id: current.id }, data: { recurring: true } });
    const recurring = await renew(f, current.id, renewalBody(1000));
    expect(recurring.status).toBe(422);
    expect(((await recurring.json()) as Err).error.message).toMatch(/recurring plans are not renewable/);
    await f.db.subscription.update({ where: { id: current.id }, data: { recurring: false } });

    const wrong = await renew(f, current.id, renewalBody(999));
    expect(wrong.status).toBe(422);

    const noToken = renewalBody(1000);
    delete (noToken.subscription.payment as Record<string, unknown>).payment_token;
    const missing = await renew(f, current.id, noToken);
    expect(missing.status).toBe(400);

    const other = await renew(f, current.id, renewalBody(1000), { provider: "email", identity: "bob@example.com" });
    expect(other.status).toBe(404);
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(1);
  });
});
