/**
 * Changing the card of a razorpay_recurring subscription from the self-service page
 * (docs/subscriptions.md "Self-service page", Payment method), against the Razorpay stand-in
 * (server/testing/razorpay-fixture.ts), on PGlite and PostgreSQL: the card offers Razorpay's hosted
 * page; the route fetches the subscription (GET /v1/subscriptions/<id>) and sends the reader to its
 * short_url; Razorpay's subscription.updated webhook then stores the new card's token, audited
 * once; a gateway with no way at all keeps the clear 422; and a plan switch of such a subscription
 * waits for the next charge, saying why, and moves Razorpay's subscription to the target's Razorpay
 * plan at the cycle's end (a plan without one refused).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { receiveGatewayWebhook } from "@/server/subscriptions/payments/gateway-events";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";
import { razorpayStandIn } from "@/server/testing/gateway-checkout";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { insertSelfServiceSubscription, insertTestPlan } from "@/server/testing/subscription-fixtures";

import { GET as HOSTED } from "./[subscription_id]/payment-method/hosted/route";
import { PUT as PAYMENT_METHOD } from "./[subscription_id]/payment-method/route";
import { POST as SWITCH_PREVIEW } from "./[subscription_id]/switch/preview/route";
import { POST as SWITCH } from "./[subscription_id]/switch/route";
import { GET as OVERVIEW } from "./route";

const DAY = 86_400_000;

const razorpayAccount = razorpayStandIn();

// The answers' JSON is read loosely in assertions.
/* eslint-disable @typescript-eslint/no-unsafe-member-access */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The publisher of localhost with Razorpay set up, and Ada's razorpay_recurring subscription (sub_… at Razorpay). */
async function setup(opts: { paymentType?: string; razorpayStatus?: string } = {}) {
  forgetPublisherCache();
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fx, url } = await razorpayAccount(db, f.account.id);
  const standard = await insertTestPlan(db, f.group, { title: "Standard", priceCents: 49900, recurring: true });
  const premium = await db.subscriptionPlan.update({
    where: { id: (await insertTestPlan(db, f.group, { title: "Premium", priceCents: 79900, recurring: true })).id },
    data: { metadata: { razorpay_plan_id: "plan_Premium" } },
  });
  // Razorpay's subscription, as checkout's preview made it (POST /v1/subscriptions) and the reader authorised it.
  const made = await fx.handle(`${url}/v1/subscriptions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${fx.keyId}:${fx.keySecret}`).toString("base64")}` },
    body: JSON.stringify({ plan_id: "plan_00000000000001", total_count: 12, quantity: 1 }),
  });
  const gatewaySub = ((await made.json()) as { id: string }).id;
  fx.subscriptions.get(gatewaySub)!.status = opts.razorpayStatus ?? "active";
  const paymentType = opts.paymentType ?? "razorpay_recurring";
  const attempt = await db.subscriptionAttempt.create({
    data: {
      id: crypto.randomUUID(),
      accountId: f.account.id,
      terms: {},
      paymentType,
      amountCents: 49900,
      currency: "USD",
      externalReferenceId: gatewaySub,
      expiresAt: new Date(Date.now() + DAY),
    },
  });
  const { token, sub: created } = await insertSelfServiceSubscription(db, {
    accountId: f.account.id,
    planId: standard.id,
    paymentType,
  });
  const sub = await db.subscription.update({
    where: { id: created.id },
    data: { attemptId: attempt.id, paymentToken: "pay_first0000001" },
  });
  // Razorpay's current cycle ends when Masthead's period does.
  fx.subscriptions.get(gatewaySub)!.current_end = Math.floor(sub.endTimestamp!.getTime() / 1000);
  const page = (handler: Parameters<typeof call>[0], method: string, tail: string, body?: unknown) =>
    call(handler, method, `/api/member/subscriptions/${sub.id}${tail}`, { subscription_id: String(sub.id) }, body, {
      "X-QT-AUTH": token,
    });
  return { db, f, fx, gatewaySub, standard, premium, token, sub, page };
}

describe("a Razorpay subscription's card, from the self-service page", () => {
  it("offers Razorpay's hosted page and sends the reader to the subscription's short_url", async () => {
    const s = await setup();
    const overview = (await (
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token })
    ).json()) as Json;
    const card = (overview.subscriptions as Json[]).find((c) => c.id === s.sub.id)!;
    expect(card.can_update_payment_method).toBe(true);
    expect(card.payment_method_update).toEqual({
      kind: "hosted",
      provider_name: "Razorpay",
      href: `/api/member/subscriptions/${s.sub.id}/payment-method/hosted`,
    });

    const res = await s.page(HOSTED, "GET", "/payment-method/hosted");
    expect(res.status, await res.clone().text()).toBe(303);
    const shortUrl = s.fx.subscriptions.get(s.gatewaySub)!.short_url as string;
    expect(shortUrl).toMatch(/^https:\/\/rzp\.io\/i\//);
    expect(res.headers.get("location")).toBe(shortUrl);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(s.fx.calls.filter((c) => c.method === "GET")).toEqual([
      { method: "GET", path: `/v1/subscriptions/${s.gatewaySub}`, body: null },
    ]);
    // The page's own form is not Razorpay's way: a token sent there is refused, and nothing changes.
    const form = await s.page(PAYMENT_METHOD, "PUT", "/payment-method", { payment_token: "tok_x" });
    expect(form.status).toBe(422);
  });

  it("offers the hosted page in the grace period after a failed charge (Razorpay: pending)", async () => {
    const s = await setup({ razorpayStatus: "pending" });
    await s.db.subscription.update({
      where: { id: s.sub.id },
      data: { endTimestamp: new Date(Date.now() - DAY), graceEndsAt: new Date(Date.now() + 6 * DAY) },
    });
    const overview = (await (
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token })
    ).json()) as Json;
    const card = (overview.subscriptions as Json[]).find((c) => c.id === s.sub.id)!;
    expect(card).toMatchObject({ in_grace_period: true, can_update_payment_method: true });
    expect(card.payment_method_update).toMatchObject({ kind: "hosted", provider_name: "Razorpay" });
    const res = await s.page(HOSTED, "GET", "/payment-method/hosted");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(s.fx.subscriptions.get(s.gatewaySub)!.short_url);
  });

  it("refuses when Razorpay reports the subscription cancelled", async () => {
    const cancelled = await setup({ razorpayStatus: "cancelled" });
    const res = await cancelled.page(HOSTED, "GET", "/payment-method/hosted");
    const body = (await res.json()) as Json;
    expect(res.status).toBe(422);
    expect(body.error.message).toBe(
      "The card cannot be changed at the gateway: Razorpay reports this subscription as cancelled: its card cannot change.",
    );
  });

  it("keeps the clear 422 for a gateway with no way at all (manual)", async () => {
    const manual = await setup({ paymentType: "manual" });
    const refused = await manual.page(HOSTED, "GET", "/payment-method/hosted");
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Json).error.message).toBe(
      "The payment method of this subscription cannot be changed here; contact the publication.",
    );
    const overview = (await (
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": manual.token })
    ).json()) as Json;
    const card = (overview.subscriptions as Json[]).find((c) => c.id === manual.sub.id)!;
    expect(card).toMatchObject({ can_update_payment_method: false, payment_method_update: null });
  });

  it("stores the new card when Razorpay's subscription.updated reports it, audited once", async () => {
    const s = await setup();
    const { tokenId, webhook } = s.fx.changeCard({ subscriptionId: s.gatewaySub, network: "Visa", last4: "4242" });
    const receive = (hook: { body: string; headers: Record<string, string> }) =>
      receiveGatewayWebhook(s.db, {
        provider: "razorpay",
        accountId: s.f.account.id,
        headers: new Headers(hook.headers),
        rawBody: hook.body,
        now: new Date(),
      });
    expect((await receive(webhook)).status).toBe("accepted");
    expect((await receive(webhook)).status).toBe("duplicate");
    await runJobsNow(s.db, testJobDeps());
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.paymentToken).toBe(tokenId);
    const audits = await s.db.auditLog.findMany({
      where: { action: "subscription.payment_method.update", targetId: String(s.sub.id) },
    });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.metadata).toMatchObject({
      payment_type: "razorpay_recurring",
      label: "Visa ending 4242",
      source: "gateway",
    });
    const event = await s.db.gatewayEvent.findFirstOrThrow({ where: { accountId: s.f.account.id } });
    expect(event).toMatchObject({ status: "processed", error: null });

    // The same card reported again (another event) changes nothing more.
    const again = s.fx.webhook("subscription.updated", {
      subscription: s.fx.subscriptions.get(s.gatewaySub)!,
      payment: (JSON.parse(webhook.body) as Json).payload.payment.entity as Record<string, unknown>,
    });
    expect((await receive(again)).status).toBe("accepted");
    await runJobsNow(s.db, testJobDeps());
    expect(
      await s.db.auditLog.count({
        where: { action: "subscription.payment_method.update", targetId: String(s.sub.id) },
      }),
    ).toBe(1);
    // An update naming no card (a plan or quantity change) is ignored, saying why.
    const noCard = s.fx.webhook("subscription.updated", { subscription: s.fx.subscriptions.get(s.gatewaySub)! });
    await receive(noCard);
    await runJobsNow(s.db, testJobDeps());
    const ignored = await s.db.gatewayEvent.findFirstOrThrow({
      where: { accountId: s.f.account.id },
      orderBy: { id: "desc" },
    });
    expect(ignored).toMatchObject({ status: "ignored", error: "The event names no payment method." });
  });

  it("schedules a plan switch for the next charge even with proration on, saying Razorpay charges by itself", async () => {
    const s = await setup();
    const res = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id });
    const p = (await res.json()) as Json;
    expect(res.status, JSON.stringify(p)).toBe(200);
    expect(p.switch).toMatchObject({ applies: "scheduled", scheduled_reason: "gateway_charges", charged_with: null });
    expect(p.chargeable_amount_cents).toBeNull();
    expect(p.words).toMatch(
      /^Nothing to pay now\. You keep your current plan until .+; from then you pay \$799\.00 per month for Premium\. Your payment provider charges this subscription on its own schedule, so the change waits for the next charge\.$/,
    );

    // The confirm moves Razorpay's subscription to Premium's Razorpay plan from its next cycle.
    const done = await s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token as string });
    expect(done.status, JSON.stringify((await done.clone().json()) as Json)).toBe(200);
    expect(s.fx.calls.filter((c) => c.method === "PATCH")).toEqual([
      {
        method: "PATCH",
        path: `/v1/subscriptions/${s.gatewaySub}`,
        body: { plan_id: "plan_Premium", schedule_change_at: "cycle_end" },
      },
    ]);
    expect(await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).toMatchObject({
      planId: s.standard.id,
      scheduledPlanId: s.premium.id,
    });

    // A plan with no Razorpay plan cannot be switched to on Razorpay: refused at the preview.
    const bare = await insertTestPlan(s.db, s.f.group, { title: "Bare", priceCents: 99900, recurring: true });
    const refused = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: bare.id });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Json).error.message).toMatch(/set razorpay_plan_id/);
  });
});
