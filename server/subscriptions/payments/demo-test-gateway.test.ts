import { describe, expect, it } from "vitest";

import { PaymentAdapterError, type PaymentIntent } from "./adapter";
import { demoTestGatewayAdapter } from "./demo-test-gateway";
import { paymentAdapterFor } from "./registry";

const intent: PaymentIntent = {
  accountId: 1,
  attemptId: "0b6c1d1e-9a43-4c55-8d8c-2a7c0e3d9f10",
  amountCents: 900,
  currency: "USD",
  recurring: false,
  plan: { id: 1, title: "Monthly" },
  subscriber: { id: 1, name: null, email: null, phone: null },
};
const order = `demo_order_${intent.attemptId}`;
const proof = (paymentToken: string | null, externalReferenceId: string | null = order) => ({
  paymentToken,
  externalReferenceId,
  extra: {},
});

describe("the demo_test gateway (test-only)", () => {
  const on = demoTestGatewayAdapter({ enabled: () => true, isDemoAccount: async (id) => id === 1 });

  it("is registered for the client API and takes a payment", () => {
    const adapter = paymentAdapterFor("demo_test");
    expect(adapter).toMatchObject({ callers: "any", takesPayment: true, provider: null });
  });

  it("makes an order at preview and captures only that order's token at create", async () => {
    expect((await on.preparePayment(null, intent)).externalReferenceId).toBe(order);
    expect(await on.verifyPayment(null, intent, proof(`demo_pay_${intent.attemptId}`))).toMatchObject({
      status: "captured",
      externalOrderId: order,
    });
    expect((await on.verifyPayment(null, intent, proof("demo_pay_other"))).status).toBe("failed");
    expect((await on.verifyPayment(null, intent, proof(`demo_pay_${intent.attemptId}`, "demo_order_x"))).status).toBe(
      "failed",
    );
    expect((await on.verifyPayment(null, intent, proof(`demo_decline_${intent.attemptId}`))).status).toBe("failed");
  });

  it("refuses every other account, and everything while the demo tools are off", async () => {
    await expect(on.preparePayment(null, { ...intent, accountId: 2 })).rejects.toBeInstanceOf(PaymentAdapterError);
    await expect(
      on.verifyPayment(null, { ...intent, accountId: 2 }, proof(`demo_pay_${intent.attemptId}`)),
    ).rejects.toThrow(/demo publisher/);
    const off = demoTestGatewayAdapter({ enabled: () => false, isDemoAccount: async () => true });
    await expect(off.preparePayment(null, intent)).rejects.toThrow(/DEMO_TOOLS/);
    await expect(off.verifyPayment(null, intent, proof(`demo_pay_${intent.attemptId}`))).rejects.toThrow(/DEMO_TOOLS/);
    expect(
      on.webhookRequestAuthorized(
        { app_key: "", secret: "", enabled: true, webhook_secret: null, environment: "sandbox" },
        { headers: new Headers(), rawBody: "" },
      ),
    ).toBe(false);
  });
});
