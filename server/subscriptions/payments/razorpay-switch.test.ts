/**
 * The Razorpay adapter's plan changes (razorpay-switch.ts) against the Razorpay stand-in: the
 * subscription moved to the target's Razorpay plan at the cycle's end (a change scheduled before
 * cancelled first), refused without a razorpay_plan_id, for a subscription Razorpay cannot update,
 * when Razorpay would change it at another time than Masthead's period end, and always "now".
 */
import { describe, expect, it } from "vitest";

import { razorpayAdapterStandIn } from "../../testing/razorpay-adapter";
import { PaymentAdapterError, type GatewayPlanChange } from "./adapter";
import { createRazorpayAdapter } from "./razorpay";

const END = 1_790_000_000;

function setup(status = "active") {
  const { fx, adapter, creds } = razorpayAdapterStandIn();
  const sub = { id: "sub_Switch01", entity: "subscription", plan_id: "plan_Standard", status, current_end: END };
  fx.subscriptions.set(sub.id, { ...sub, has_scheduled_changes: false, change_scheduled_at: null });
  const change = (over: Partial<GatewayPlanChange> = {}): GatewayPlanChange => ({
    accountId: 7,
    subscriptionId: 1,
    attemptId: "5d7e0c1a-0000-4000-8000-000000000001",
    gatewayReference: sub.id,
    currency: "INR",
    plan: { id: 4, title: "Premium", metadata: { razorpay_plan_id: "plan_Premium" } },
    priceCents: 99900,
    period: { length: 1, unit: "MONTHS" },
    fromPeriod: { length: 1, unit: "MONTHS" },
    periodEnd: new Date(END * 1000),
    ...over,
  });
  return { fx, adapter, creds, change, sub: fx.subscriptions.get(sub.id)! };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof PaymentAdapterError ? { kind: e.kind, message: e.message } : e),
  );

describe("Razorpay plan changes", () => {
  it("moves the subscription to the target's Razorpay plan at the cycle's end, replacing a change scheduled before", async () => {
    const { fx, adapter, creds, change, sub } = setup();
    expect(await adapter.changePlan!(creds, change(), { when: "next_period" })).toEqual({
      status: "changed",
      charge: null,
      nextChargeAt: new Date(END * 1000),
    });
    expect(fx.calls.filter((c) => c.method === "PATCH")).toEqual([
      {
        method: "PATCH",
        path: "/v1/subscriptions/sub_Switch01",
        body: { plan_id: "plan_Premium", schedule_change_at: "cycle_end" },
      },
    ]);
    expect(sub).toMatchObject({ has_scheduled_changes: true, change_scheduled_at: END });
    // A second switch: the first scheduled change is cancelled, then the new one scheduled.
    fx.calls.length = 0;
    const lite = change({ plan: { id: 5, title: "Lite", metadata: { razorpay_plan_id: "plan_Lite" } } });
    expect((await adapter.changePlan!(creds, lite, { when: "next_period" })).status).toBe("changed");
    expect(fx.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /v1/subscriptions/sub_Switch01",
      "POST /v1/subscriptions/sub_Switch01/cancel_scheduled_changes",
      "PATCH /v1/subscriptions/sub_Switch01",
    ]);
  });

  it("refuses what Razorpay cannot do as Masthead means it", async () => {
    const { fx, adapter, creds, change } = setup();
    expect(adapter.planChangeTimings).toEqual(["next_period"]);
    expect(adapter.planChangeRefusal!(change(), "now")).toMatch(/switch at the end of the period/);
    expect(adapter.planChangeRefusal!(change({ plan: { id: 4, title: "P", metadata: {} } }), "next_period")).toMatch(
      /set razorpay_plan_id/,
    );
    expect(
      await refusal(adapter.changePlan!(creds, change(), { when: "now", prorationDate: 1, expectedCents: 1 })),
    ).toMatchObject({ kind: "invalid" });
    // Razorpay would change the plan a month after Masthead's period end: cancelled again, refused.
    const late = change({ periodEnd: new Date((END - 31 * 86_400) * 1000) });
    expect(await refusal(adapter.changePlan!(creds, late, { when: "next_period" }))).toMatchObject({
      kind: "declined",
      message: expect.stringMatching(/not at the end of this period/) as unknown,
    });
    expect(fx.subscriptions.get("sub_Switch01")).toMatchObject({ has_scheduled_changes: false });
  });

  it("refuses a subscription Razorpay cannot update, and says when Razorpay is down", async () => {
    const halted = setup("halted");
    expect(await refusal(halted.adapter.changePlan!(halted.creds, halted.change(), { when: "next_period" }))).toEqual({
      kind: "declined",
      message: "Razorpay reports this subscription as halted: its plan cannot change now.",
    });
    const { adapter, creds, change } = setup();
    const down = createRazorpayAdapter({
      baseUrl: () => "https://api.razorpay.test",
      fetch: () => Promise.reject(new Error("ECONNREFUSED")),
    });
    expect(await refusal(down.changePlan!(creds, change(), { when: "next_period" }))).toMatchObject({
      kind: "unavailable",
    });
    expect(adapter.planChangeRefusal!(change(), "next_period")).toBeNull();
  });
});
