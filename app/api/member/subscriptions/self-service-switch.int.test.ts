/**
 * Plan switches on the self-service page's API, on PGlite and PostgreSQL: previewed in words (in
 * the account's time zone, or the reader's when the page sends it) and honoured as previewed,
 * once on a double submit; refused when the plan's price changed since the preview; a one-time
 * plan's prorated charge now; a plan of another group refused.
 */
import { describe, expect, it } from "vitest";

import { formatInstant } from "@/server/dates.schema";
import { call } from "@/server/testing/engagement";
import { read, renew, setupSelfService, withSelfpayGateway } from "@/server/testing/self-service";

import { POST as SWITCH_PREVIEW } from "./[subscription_id]/switch/preview/route";
import { POST as SWITCH } from "./[subscription_id]/switch/route";
import { GET as OVERVIEW } from "./route";

// The answers' JSON is read loosely in assertions (the routes' own types are the services').
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
const charges = withSelfpayGateway();
const setup = setupSelfService;

describe("the self-service page's API", () => {
  it("with proration off, previews a recurring switch for the period end in words, honours it, once on a double submit", async () => {
    const s = await setup();
    await s.db.subscriptionGroup.update({ where: { id: s.f.group.id }, data: { prorationEnabled: false } });
    // The words name the time in the account's zone: the preview and the confirm say the same instant.
    await s.db.account.update({ where: { id: s.f.account.id }, data: { timeZone: "Asia/Tokyo" } });
    const preview = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id });
    const p = await read(preview);
    expect(preview.status, JSON.stringify(p)).toBe(200);
    const end = s.sub.endTimestamp!;
    const day = formatInstant(end, "Asia/Tokyo");
    expect(day).toMatch(/ GMT\+9$/);
    expect(p.words).toBe(
      `Nothing to pay now. You keep your current plan until ${day}; from then you pay $12.00 per month for Premium.`,
    );
    expect(p.switch).toMatchObject({ applies: "scheduled", price_cents: 1200, currency: "USD" });
    expect(p.needs_payment).toBe(false);

    const [a, b] = await Promise.all([
      s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token }),
      s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await read(a)).message).toBe(`Done: your plan changes to Premium on ${day}.`);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.scheduledPlanId).toBe(s.premium.id);
    expect(after.scheduledSwitchAt?.toISOString()).toBe(p.switch.applies_at);
    expect(after.scheduledSwitch).toMatchObject({ price_cents: 1200 });
    expect(
      await s.db.auditLog.count({ where: { action: "subscription.schedule_switch", targetId: String(s.sub.id) } }),
    ).toBe(1);

    // At the period end the renewal charges exactly the previewed price, on the new plan.
    await renew(s.db, s.sub.id, new Date(end.getTime() + 1000));
    const renewed = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(renewed.planId).toBe(s.premium.id);
    expect(charges.filter((c) => c.subscriptionId === s.sub.id).map((c) => c.amountCents)).toEqual([1200]);
  });

  it("names times in the reader's zone when the page sends it, the preview and the confirm alike; refuses a zone that is not one", async () => {
    const s = await setup();
    await s.db.subscriptionGroup.update({ where: { id: s.f.group.id }, data: { prorationEnabled: false } });
    await s.db.account.update({ where: { id: s.f.account.id }, data: { timeZone: "Asia/Tokyo" } });
    const zone = "?time_zone=America%2FNew_York";
    const overview = await read(
      await call(OVERVIEW, "GET", `/api/member/subscriptions${zone}`, {}, undefined, { "X-QT-AUTH": s.token }),
    );
    const next = s.sub.nextPaymentDueDate ?? s.sub.endTimestamp!;
    expect(overview.subscriptions[0].summary).toBe(
      `Next payment: $10.00 on ${formatInstant(next, "America/New_York")}.`,
    );
    expect(overview.subscriptions[0].summary).toMatch(/ GMT-[45]\.$/);

    const attempts = () => s.db.subscriptionAttempt.count({ where: { accountId: s.f.account.id } });
    const before = await attempts();
    const refused = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview?time_zone=Mars%2FOlympus", {
      subscription_plan_id: s.premium.id,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await read(refused))).toContain("time_zone");
    expect(await attempts()).toBe(before);

    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", `/switch/preview${zone}`, { subscription_plan_id: s.premium.id }),
    );
    const at = formatInstant(s.sub.endTimestamp!, "America/New_York");
    expect(p.words).toBe(
      `Nothing to pay now. You keep your current plan until ${at}; from then you pay $12.00 per month for Premium.`,
    );
    const done = await read(await s.page(SWITCH, "POST", `/switch${zone}`, { attempt_token: p.attempt_token }));
    expect(done.message).toBe(`Done: your plan changes to Premium on ${at}.`);
  });

  it("refuses a confirm whose plan price changed since the preview, and changes nothing", async () => {
    const s = await setup();
    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    await s.db.subscriptionPlan.update({
      where: { id: s.premium.id },
      data: { priceCents: 1500, prices: { USD: { amount_cents: 1500 } } },
    });
    const res = await s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token });
    const body = await read(res);
    expect(res.status).toBe(409);
    expect(body.error.message).toMatch(/price of "Premium" changed since your preview; nothing was charged/);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.scheduledPlanId).toBeNull();
    // A recurring switch applied now (proration on): nothing charged, the plan unchanged.
    expect(after.planId).toBe(s.monthly.id);
    expect(charges).toHaveLength(0);
    // A fresh preview shows the new price.
    const again = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    expect(again.words).toContain("your next charge of $15.00");
  });

  it("says a one-time switch's prorated charge now, and refuses a plan of another group", async () => {
    const s = await setup({ recurring: false, paymentType: "testpay" });
    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    expect(p.switch.applies).toBe("now");
    const charge = p.chargeable_amount_cents as number;
    expect(charge).toBe(1200 - (p.switch.credit_cents as number));
    expect(p.words).toBe(
      `You pay $${(charge / 100).toFixed(2)} now ($12.00 less $${((p.switch.credit_cents as number) / 100).toFixed(2)} for the unused part of your plan), and Premium starts today for 1 month.`,
    );
    expect(p.needs_payment).toBe(true);
    // Without the gateway's payment the switch is refused, and nothing changes.
    expect((await s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token })).status).toBe(422);
    const bad = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", {
      subscription_plan_id: s.f.monthly.id + 10_000,
    });
    expect(bad.status).toBe(422);
    expect((await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: "x" })).status).toBe(400);
  });
});
