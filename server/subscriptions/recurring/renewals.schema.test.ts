import { describe, expect, it } from "vitest";

import { ZRenewalBody } from "./renewals.schema";

const body = (payment: Record<string, unknown>) => ({ subscription: { payment } });

describe("ZRenewalBody", () => {
  it("trims the payment token and the gateway order, and keeps other gateway fields as sent", () => {
    const parsed = ZRenewalBody.parse(
      body({ payment_type: "razorpay", payment_token: " pay_1 ", external_reference_id: " order_1 ", sig: " s " }),
    );
    expect(parsed.subscription.payment).toEqual({
      payment_type: "razorpay",
      payment_token: "pay_1",
      external_reference_id: "order_1",
      sig: " s ",
    });
  });

  it("refuses, without throwing, a blank gateway order or token and a missing token", () => {
    for (const [payment, field] of [
      [{ payment_type: "manual", payment_token: "t", external_reference_id: " " }, "external_reference_id"],
      [{ payment_type: "manual", payment_token: "  " }, "payment_token"],
      [{ payment_type: "manual" }, "payment_token"],
      [{ payment_type: "manual", payment_token: "t", external_reference_id: 7 }, "external_reference_id"],
    ] as const) {
      const result = ZRenewalBody.safeParse(body(payment));
      expect(result.success, JSON.stringify(payment)).toBe(false);
      expect(result.error!.issues.map((issue) => issue.path.at(-1))).toContain(field);
    }
  });

  it("refuses a payment with more than 30 fields", () => {
    const extra = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i]));
    const result = ZRenewalBody.safeParse(body({ payment_type: "manual", payment_token: "t", ...extra }));
    expect(result.success).toBe(false);
  });
});
