/**
 * Plan switching through the client API (spec §4.3 switch_plan[/preview]), on PGlite and
 * PostgreSQL: a prorated upgrade paid through testpay's adapter and applied now; with proration
 * off, a switch scheduled for the period end, shown by GET …/<id> and applied by its job.
 */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "@/server/auth/api-auth";
import { getDb } from "@/server/db";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { switchJobKey } from "@/server/subscriptions/recurring/plan-switch-scheduled";
import { createCheckoutFixture, testpayPayment } from "@/server/testing/checkout";
import { call, readerJwt } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { GET as GET_ONE } from "../route";
import { POST as PREVIEW } from "./preview/route";
import { POST as SWITCH } from "./route";

type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };
type Preview = {
  subscription: { id: number; subscription_plan_id: number };
  attempt_token: string;
  chargeable_amount_cents: number | null;
  external_reference_id: string | null;
  switch: { applies: string; applies_at: string; credit_cents: number; price_cents: number };
};
type Switched = {
  subscription: {
    id: number;
    subscription_plan_id: number;
    plan_name: string;
    start_timestamp: string;
    end_timestamp: string;
  };
  message: string;
};

const DAY = 86_400_000;
const user = (id: string): ApiUser => ({ id, name: "Ada", email: null, avatarUrl: null, provider: null });

async function setup() {
  const f = await createCheckoutFixture(await getDb());
  const premium = await insertTestPlan(f.db, f.group, {
    title: "Premium monthly",
    priceCents: 2000,
    priceCurrency: "USD",
  });
  const cheap = await insertTestPlan(f.db, f.group, { title: "Lite monthly", priceCents: 500, priceCurrency: "USD" });
  const euro = await insertTestPlan(f.db, f.group, { title: "Euro monthly", priceCents: 1500, priceCurrency: "EUR" });
  const ada = await findOrCreateJwtMember(f.db, { accountId: f.account.id, user: user("r-ada"), now: new Date() });
  const jwt = await readerJwt({ id: "r-ada", name: "Ada" });
  const start = new Date(Date.now() - 10 * DAY);
  const sub = await insertTestSubscription(f.db, {
    accountId: f.account.id,
    memberId: ada.id,
    planId: f.monthly.id,
    paymentType: "testpay",
    start,
    end: new Date(start.getTime() + 30 * DAY),
  });
  return { f, premium, cheap, euro, ada, jwt, sub };
}

const path = (id: number, key: string, jwt: string, tail = "") =>
  `/api/access/v1/members/me/subscriptions/${id}${tail}?key=${key}&accesstype_jwt=${jwt}`;
const params = (id: number) => ({ subscription_id: String(id) });

async function preview(s: Awaited<ReturnType<typeof setup>>, planId: number, switchType: string) {
  return call(PREVIEW, "POST", path(s.sub.id, s.f.key, s.jwt, "/switch_plan/preview"), params(s.sub.id), {
    subscription_plan_id: planId,
    switch_type: switchType,
  });
}
function pay(p: Preview) {
  return testpayPayment(p.external_reference_id!, p.chargeable_amount_cents!, "USD");
}
function doSwitch(s: Awaited<ReturnType<typeof setup>>, body: unknown) {
  return call(SWITCH, "POST", path(s.sub.id, s.f.key, s.jwt, "/switch_plan"), params(s.sub.id), body);
}

describe("switch_plan", () => {
  it("prorates an upgrade, takes the payment through the adapter, switches now, and is idempotent", async () => {
    const s = await setup();
    const res = await preview(s, s.premium.id, "upgrade");
    const p = (await res.json()) as Preview;
    expect(res.status, JSON.stringify(p)).toBe(200);
    expect(p.switch.applies).toBe("now");
    // 20 of 30 days unused of 1000 paid: credit 666 (667 if a millisecond passed the day), charge the rest of 2000.
    expect(p.switch.credit_cents).toBeGreaterThanOrEqual(665);
    expect(p.switch.credit_cents).toBeLessThanOrEqual(667);
    expect(p.chargeable_amount_cents).toBe(2000 - p.switch.credit_cents);

    const refused = await doSwitch(s, { attempt_token: p.attempt_token });
    expect(refused.status).toBe(422);
    const payment = pay(p);
    const ok = await doSwitch(s, { attempt_token: p.attempt_token, ...payment });
    const body = (await ok.json()) as Switched;
    expect(ok.status, JSON.stringify(body)).toBe(200);
    expect(body.message).toBe("Subscription plan switched.");
    expect(body.subscription).toMatchObject({
      id: s.sub.id,
      subscription_plan_id: s.premium.id,
      plan_name: "Premium monthly",
    });
    expect(new Date(body.subscription.start_timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const again = await doSwitch(s, { attempt_token: p.attempt_token, ...payment });
    expect(again.status).toBe(200);
    const payments = await s.f.db.payment.findMany({ where: { subscriptionId: s.sub.id } });
    expect(payments.map((x) => x.amountCents)).toEqual([p.chargeable_amount_cents]);
    expect(
      await s.f.db.auditLog.count({ where: { action: "subscription.switch_plan", targetId: String(s.sub.id) } }),
    ).toBe(1);
  });

  it("refuses a switch_type the prices contradict, another currency only, and the current plan", async () => {
    const s = await setup();
    let res = await preview(s, s.premium.id, "downgrade");
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.details).toEqual([
      { field: "switch_type", issue: "must be upgrade for this plan" },
    ]);
    res = await preview(s, s.euro.id, "crossgrade");
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.details?.[0]?.field).toBe("subscription_plan_id");
    res = await preview(s, s.f.monthly.id, "crossgrade");
    expect(res.status).toBe(422);
    res = await preview(s, s.cheap.id, "sideways");
    expect(res.status).toBe(400);
    expect(await s.f.db.subscriptionAttempt.count({ where: { accountId: s.f.account.id } })).toBe(0);
  });

  it("with proration off schedules the switch for the period end, shows it, queues one job and applies it then", async () => {
    const s = await setup();
    await s.f.db.subscriptionGroup.update({ where: { id: s.f.group.id }, data: { prorationEnabled: false } });
    const first = (await (await preview(s, s.cheap.id, "downgrade")).json()) as Preview;
    expect(first.switch.applies).toBe("scheduled");
    expect(first.chargeable_amount_cents).toBe(500);
    const res = await doSwitch(s, { attempt_token: first.attempt_token, ...pay(first) });
    const body = (await res.json()) as Switched;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.message).toMatch(/scheduled for the end of the current period/);
    expect(body.subscription.subscription_plan_id).toBe(s.f.monthly.id);

    // A second scheduled switch replaces the first: still one pending job for the subscription.
    const second = (await (await preview(s, s.premium.id, "upgrade")).json()) as Preview;
    expect((await doSwitch(s, { attempt_token: second.attempt_token, ...pay(second) })).status).toBe(200);
    const jobs = await s.f.db.job.findMany({ where: { name: "subscription.switch_plan", status: "PENDING" } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.key).toBe(switchJobKey(s.sub.id));

    const shown = await call(GET_ONE, "GET", path(s.sub.id, s.f.key, s.jwt), params(s.sub.id));
    const detail = (await shown.json()) as { proration_enabled: boolean; scheduled_switch: Record<string, unknown> };
    expect(detail.proration_enabled).toBe(false);
    expect(detail.scheduled_switch).toMatchObject({
      subscription_plan_id: s.premium.id,
      switch_type: "upgrade",
      scheduled_at: s.sub.endTimestamp!.toISOString(),
    });

    // Before its time the job waits; after it, the subscription has the new plan from the old end.
    await runJobsNow(s.f.db, testJobDeps());
    expect((await s.f.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).planId).toBe(s.f.monthly.id);
    const later = new Date(s.sub.endTimestamp!.getTime() + 1000);
    await runJobsNow(s.f.db, testJobDeps({ clock: () => later }));
    const after = await s.f.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.planId).toBe(s.premium.id);
    expect(after.startTimestamp.toISOString()).toBe(s.sub.endTimestamp!.toISOString());
    expect(after.scheduledPlanId).toBeNull();
  });
});
