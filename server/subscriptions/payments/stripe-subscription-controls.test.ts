/**
 * What Masthead tells Stripe about a stripe_recurring subscription (./stripe-subscription-controls.ts),
 * against the fake Stripe server through the official SDK: cancel at period end and its undo,
 * cancel now, pause and resume of collection; a state already as wanted is not written again, a
 * write carries the change's idempotency key, an ended subscription refuses, Stripe down is
 * "unavailable".
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";

import type { FakeStripe } from "../../testing/fake-stripe";
import { fakeStripeAdapter, fakeStripeCredentials } from "../../testing/fake-stripe-adapter";
import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import { PaymentAdapterError, type GatewayCredentials } from "./adapter";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { resetEach: true });

const adapter = () => fakeStripeAdapter(fake);
const controls = () => adapter().subscriptionControls!;
const creds = (over: Partial<GatewayCredentials> = {}) => fakeStripeCredentials(fake, over);
let n = 0;

/** A paid monthly Stripe subscription, as checkout makes it. */
async function subscription() {
  const attemptId = `0f9c2b8e-3f5a-4c1d-9a7e-2b6d8c4e1a${String(10 + ++n).padStart(2, "0")}`;
  const prepared = await adapter().preparePayment(creds(), {
    accountId: 7,
    attemptId,
    amountCents: 1_000,
    currency: "USD",
    recurring: true,
    period: { length: 1, unit: "MONTHS" },
    periodCents: 1_000,
    plan: { id: 3, title: "Monthly" },
    subscriber: { id: 1, name: "Ada", email: "ada@example.com", phone: null },
  });
  const id = prepared.externalReferenceId!;
  const invoice = fake.state.invoices.get(fake.state.subscriptions.get(id)!.latest_invoice as string)!;
  fake.pay(invoice.payment_intent_id as string, "succeeded");
  fake.calls.length = 0;
  return id;
}
const change = (gatewayReference: string, key = "masthead-test-1") => ({
  accountId: 7,
  subscriptionId: 11,
  gatewayReference,
  idempotencyKey: key,
});
const writes = () => fake.calls.filter((c) => c.method !== "GET");
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof PaymentAdapterError ? { kind: e.kind, message: e.message } : e),
  );

describe("Stripe subscription controls", () => {
  it("cancels at the period's end once, with the change's key and the pinned API version, and takes it back", async () => {
    const id = await subscription();
    await controls().cancelAtPeriodEnd(creds(), change(id, "masthead-cancel-1"));
    const sub = fake.subscription(id);
    expect(sub).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(sub.cancel_at).toBe((sub.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end);
    expect(writes()).toEqual([
      expect.objectContaining({
        method: "POST",
        path: `/v1/subscriptions/${id}`,
        params: { cancel_at_period_end: "true" },
        idempotencyKey: "masthead-cancel-1",
        stripeVersion: Stripe.API_VERSION,
      }),
    ]);
    // A repeat (after a crash before Masthead wrote it) finds it done: no second write.
    await controls().cancelAtPeriodEnd(creds(), change(id, "masthead-cancel-1"));
    expect(writes()).toHaveLength(1);

    await controls().undoCancelAtPeriodEnd!(creds(), change(id, "masthead-undo-1"));
    expect(fake.subscription(id)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect(writes().at(-1)).toMatchObject({
      params: { cancel_at_period_end: "false" },
      idempotencyKey: "masthead-undo-1",
    });
    await controls().undoCancelAtPeriodEnd!(creds(), change(id, "masthead-undo-1"));
    expect(writes()).toHaveLength(2);
  });

  it("pauses collection until a date (its invoices voided) and resumes it, each once", async () => {
    const id = await subscription();
    const resumesAt = new Date(Date.now() + 40 * 86_400_000);
    const seconds = Math.floor(resumesAt.getTime() / 1000);
    await controls().pauseCollection(creds(), { ...change(id, "masthead-pause-1"), resumesAt });
    expect(fake.subscription(id).pause_collection).toEqual({ behavior: "void", resumes_at: seconds });
    expect(writes().at(-1)!.params).toEqual({ pause_collection: { behavior: "void", resumes_at: String(seconds) } });
    await controls().pauseCollection(creds(), { ...change(id, "masthead-pause-1"), resumesAt });
    expect(writes()).toHaveLength(1);

    await controls().resumeCollection(creds(), change(id, "masthead-resume-1"));
    expect(fake.subscription(id).pause_collection).toBeNull();
    expect(writes().at(-1)!.params).toEqual({ pause_collection: "" });
    await controls().resumeCollection(creds(), change(id, "masthead-resume-1"));
    expect(writes()).toHaveLength(2);
  });

  it("cancels now once; an ended subscription cannot be taken back, paused or resumed", async () => {
    const id = await subscription();
    await controls().cancelNow(creds(), change(id, "masthead-cancel-now-1"));
    expect(fake.subscription(id).status).toBe("canceled");
    expect(writes()).toEqual([expect.objectContaining({ method: "DELETE", path: `/v1/subscriptions/${id}` })]);
    await controls().cancelNow(creds(), change(id));
    await controls().cancelAtPeriodEnd(creds(), change(id));
    expect(writes()).toHaveLength(1);
    for (const attempt of [
      controls().undoCancelAtPeriodEnd!(creds(), change(id)),
      controls().pauseCollection(creds(), { ...change(id), resumesAt: new Date(Date.now() + 86_400_000) }),
      controls().resumeCollection(creds(), change(id)),
    ])
      expect(await refusal(attempt)).toEqual({
        kind: "declined",
        message: expect.stringContaining("Stripe has ended this subscription (canceled)") as unknown,
      });
  });

  it("says Stripe is unavailable when it fails, and refuses what is no Stripe subscription", async () => {
    const id = await subscription();
    fake.failNext(1, 500);
    expect(await refusal(controls().cancelAtPeriodEnd(creds(), change(id)))).toEqual({
      kind: "unavailable",
      message: "Stripe is unavailable.",
    });
    expect(fake.subscription(id).cancel_at_period_end).toBe(false);
    expect(await refusal(controls().cancelAtPeriodEnd(creds(), change("pi_123")))).toMatchObject({
      kind: "declined",
    });
    // Keys of a gateway staff disabled still stop what Stripe charges.
    await controls().cancelAtPeriodEnd({ ...creds(), enabled: false }, change(id));
    expect(fake.subscription(id).cancel_at_period_end).toBe(true);
  });
});
