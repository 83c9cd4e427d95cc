import { describe, expect, it } from "vitest";

import { paymentAdapterFor } from "../payments/registry";
import { paymentMethodUpdateWay } from "./self-service-payment-method";

describe("paymentMethodUpdateWay", () => {
  it("sends the reader to the gateway's own page where it has one, and takes the card on the page only for a gateway without one", () => {
    expect(paymentMethodUpdateWay(paymentAdapterFor("stripe_recurring"), 7)).toEqual({
      kind: "hosted",
      provider_name: "Stripe",
      href: "/api/member/subscriptions/7/payment-method/hosted",
    });
    expect(paymentMethodUpdateWay(paymentAdapterFor("razorpay_recurring"), 7)).toMatchObject({
      kind: "hosted",
      provider_name: "Razorpay",
    });
    expect(paymentMethodUpdateWay(paymentAdapterFor("demo_test"), 7)).toEqual({ kind: "form" });
    expect(paymentMethodUpdateWay(paymentAdapterFor("manual"), 7)).toBeNull();
    expect(paymentMethodUpdateWay(null, 7)).toBeNull();
  });
});
