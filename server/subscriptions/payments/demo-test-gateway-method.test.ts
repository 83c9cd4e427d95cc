/** The demo_test gateway's new payment method (updatePaymentMethod), as the self-service page uses it. */
import { describe, expect, it } from "vitest";

import { DEMO_EXPIRED_CARD_TOKEN, demoTestGatewayAdapter } from "./demo-test-gateway";

const update = (paymentToken: string, accountId = 1) => ({
  accountId,
  subscriptionId: 7,
  currentPaymentToken: DEMO_EXPIRED_CARD_TOKEN,
  proof: { paymentToken, extra: {} },
});

describe("demo_test updatePaymentMethod", () => {
  const on = demoTestGatewayAdapter({ enabled: () => true, isDemoAccount: async (id) => id === 1 });
  const off = demoTestGatewayAdapter({ enabled: () => false, isDemoAccount: async () => true });

  it("takes demo_method_<label> as the new method, shown by its label, and the next charge succeeds with it", async () => {
    const method = await on.updatePaymentMethod!(null, update("demo_method_visa-4242"));
    expect(method).toEqual({ paymentToken: "demo_method_visa-4242", label: "Test card visa-4242" });
    const charge = await on.chargeRecurring!(null, {
      accountId: 1,
      subscriptionId: 7,
      idempotencyKey: "sub:7:2026-12-01T00:00:00.000Z",
      amountCents: 900,
      currency: "USD",
      paymentToken: method.paymentToken,
      periodStart: new Date("2026-12-01T00:00:00.000Z"),
      periodEnd: null,
    });
    expect(charge.status).toBe("captured");
  });

  it("refuses the declining test card, anything else, another account, and while the demo tools are off", async () => {
    await expect(on.updatePaymentMethod!(null, update("demo_method_decline"))).rejects.toThrow("declined");
    await expect(on.updatePaymentMethod!(null, update("tok_visa"))).rejects.toThrow("Not a demo_test payment method");
    await expect(on.updatePaymentMethod!(null, update("demo_method_visa", 2))).rejects.toThrow("demo publisher");
    await expect(off.updatePaymentMethod!(null, update("demo_method_visa"))).rejects.toThrow("turned off");
  });
});
