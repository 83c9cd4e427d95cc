/**
 * What Masthead tells Razorpay about a razorpay_recurring subscription
 * (./razorpay-subscription-controls.ts), against the Razorpay stand-in answering in Razorpay's
 * documented shapes: cancel at the cycle's end (in a trial: now), cancel now, pause and resume
 * (each read first: already as wanted is not asked again), no undo of a cancel, a trial that
 * cannot be paused, Razorpay down.
 */
import { describe, expect, it } from "vitest";

import { razorpayAdapterStandIn } from "../../testing/razorpay-adapter";
import { PaymentAdapterError } from "./adapter";
import { createRazorpayAdapter } from "./razorpay";

function setup() {
  const { fx, adapter, creds } = razorpayAdapterStandIn();
  /** A subscription in Razorpay's `status`, as checkout made it. */
  const subscription = async (status: string) => {
    const prepared = await adapter.preparePayment(creds, {
      accountId: 7,
      attemptId: "0f9c2b8e-3f5a-4c1d-9a7e-2b6d8c4e1a10",
      amountCents: 49900,
      currency: "INR",
      recurring: true,
      plan: { id: 3, title: "Monthly", metadata: { razorpay_plan_id: "plan_00000000000001" } },
      subscriber: { id: 1, name: "Ada", email: "ada@example.com", phone: null },
    });
    const id = prepared.externalReferenceId!;
    fx.subscriptions.get(id)!.status = status;
    fx.calls.length = 0;
    return id;
  };
  const change = (gatewayReference: string) => ({
    accountId: 7,
    subscriptionId: 11,
    gatewayReference,
    idempotencyKey: "masthead-x-11-1",
  });
  const posts = () => fx.calls.filter((c) => c.method === "POST");
  return { fx, controls: adapter.subscriptionControls!, creds, subscription, change, posts };
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof PaymentAdapterError ? { kind: e.kind, message: e.message } : e),
  );

describe("Razorpay subscription controls", () => {
  it("cancels an active subscription at the cycle's end, a trial's now, and an ended one not at all", async () => {
    const { fx, controls, creds, subscription, change, posts } = setup();
    const active = await subscription("active");
    await controls.cancelAtPeriodEnd(creds, change(active));
    expect(posts()).toEqual([
      { method: "POST", path: `/v1/subscriptions/${active}/cancel`, body: { cancel_at_cycle_end: 1 } },
    ]);
    expect(fx.subscriptions.get(active)!.status).toBe("active");
    // The repeat after a crash: Razorpay takes it again; nothing else is asked.
    await controls.cancelAtPeriodEnd(creds, change(active));
    expect(posts()).toHaveLength(2);

    const trial = await subscription("authenticated");
    await controls.cancelAtPeriodEnd(creds, change(trial));
    expect(posts()).toEqual([
      { method: "POST", path: `/v1/subscriptions/${trial}/cancel`, body: { cancel_at_cycle_end: 0 } },
    ]);
    expect(fx.subscriptions.get(trial)!.status).toBe("cancelled");
    await controls.cancelAtPeriodEnd(creds, change(trial));
    await controls.cancelNow(creds, change(trial));
    expect(posts()).toHaveLength(1);
  });

  it("has no undo of a cancel: Razorpay cannot reactivate a cancelled subscription", () => {
    expect("undoCancelAtPeriodEnd" in setup().controls).toBe(false);
  });

  it("pauses an active subscription now and resumes it, each once", async () => {
    const { fx, controls, creds, subscription, change, posts } = setup();
    const id = await subscription("active");
    await controls.pauseCollection(creds, { ...change(id), resumesAt: new Date(Date.now() + 86_400_000) });
    expect(fx.subscriptions.get(id)!.status).toBe("paused");
    expect(posts()).toEqual([{ method: "POST", path: `/v1/subscriptions/${id}/pause`, body: { pause_at: "now" } }]);
    await controls.pauseCollection(creds, { ...change(id), resumesAt: new Date(Date.now() + 86_400_000) });
    await controls.resumeCollection(creds, change(id));
    await controls.resumeCollection(creds, change(id));
    expect(fx.subscriptions.get(id)!.status).toBe("active");
    expect(posts().map((c) => [c.path, c.body])).toEqual([
      [`/v1/subscriptions/${id}/pause`, { pause_at: "now" }],
      [`/v1/subscriptions/${id}/resume`, { resume_at: "now" }],
    ]);
  });

  it("refuses to pause a trial (Razorpay would cancel it) or a halted one, and says when Razorpay is down", async () => {
    const { fx, controls, creds, subscription, change, posts } = setup();
    const trial = await subscription("authenticated");
    const until = new Date(Date.now() + 86_400_000);
    expect(await refusal(controls.pauseCollection(creds, { ...change(trial), resumesAt: until }))).toEqual({
      kind: "declined",
      message: "Razorpay cancels a subscription paused before its first charge: it cannot be paused in its trial.",
    });
    expect(fx.subscriptions.get(trial)!.status).toBe("authenticated");
    const halted = await subscription("halted");
    expect(await refusal(controls.pauseCollection(creds, { ...change(halted), resumesAt: until }))).toEqual({
      kind: "declined",
      message: "Razorpay pauses only active subscriptions; this one is halted.",
    });
    expect(posts()).toEqual([]);

    const down = createRazorpayAdapter({
      baseUrl: () => "https://api.razorpay.test",
      fetch: () => Promise.resolve(new Response("{}", { status: 503 })),
    });
    expect(await refusal(down.subscriptionControls!.cancelAtPeriodEnd(creds, change(trial)))).toEqual({
      kind: "unavailable",
      message: "Razorpay is unavailable.",
    });
    expect(await refusal(controls.cancelNow(creds, change("order_123")))).toMatchObject({ kind: "declined" });
  });
});
