import { describe, expect, it } from "vitest";

import {
  requireAttemptToken,
  ZClientCheckoutBody,
  ZGuestCheckoutBody,
  ZServerCheckoutBody,
  ZValidateCouponBody,
} from "./checkout.schema";

const subscription = {
  subscription_plan_id: 7,
  payment: { payment_type: "razorpay", amount_cents: 1000, amount_currency: "usd" },
};

describe("checkout bodies", () => {
  it("reads the spec's preview body, upper-casing currency and coupon, keeping gateway fields of payment", () => {
    const body = ZClientCheckoutBody.parse({
      subscription: {
        ...subscription,
        coupon_code: " welcome20 ",
        payment: { ...subscription.payment, razorpay_signature: "abc" },
      },
    });
    expect(body.subscription).toMatchObject({
      subscription_plan_id: 7,
      coupon_code: "WELCOME20",
      payment: { payment_type: "razorpay", amount_cents: 1000, amount_currency: "USD", razorpay_signature: "abc" },
    });
    expect(
      ZClientCheckoutBody.parse({ subscription: { ...subscription, subscription_plan_id: "7" } }).subscription
        .subscription_plan_id,
    ).toBe(7);
  });

  it("refuses float amounts, unknown types and units, and object payment extras", () => {
    for (const bad of [
      { ...subscription, payment: { ...subscription.payment, amount_cents: 10.5 } },
      { ...subscription, subscription_type: "gift" },
      { ...subscription, trial_period_unit: "hours" },
      { ...subscription, payment: { ...subscription.payment, nested: { a: 1 } } },
      { ...subscription, subscription_plan_id: "07" },
    ])
      expect(ZClientCheckoutBody.safeParse({ subscription: bad }).success, JSON.stringify(bad)).toBe(false);
  });

  it("needs the attempt token on create, at the top level or inside subscription", () => {
    const create = requireAttemptToken(ZClientCheckoutBody);
    expect(create.safeParse({ subscription }).success).toBe(false);
    expect(create.safeParse({ subscription, attempt_token: "a.b" }).success).toBe(true);
    expect(create.safeParse({ subscription: { ...subscription, attempt_token: "a.b" } }).success).toBe(true);
  });

  it("checks the alternate identity pairs on the server API at both levels", () => {
    expect(ZServerCheckoutBody.safeParse({ subscription, alternate_provider: "email" }).success).toBe(false);
    const nested = ZServerCheckoutBody.safeParse({
      subscription: { ...subscription, alternate_provider: "email", alternate_identity: "nope" },
    });
    expect(nested.success).toBe(false);
    expect(nested.error?.issues[0]?.path).toEqual(["subscription", "alternate_identity"]);
    expect(
      ZServerCheckoutBody.safeParse({ subscription, alternate_provider: "email", alternate_identity: "a@example.com" })
        .success,
    ).toBe(true);
  });

  it("guest checkout needs an e-mail or an E.164 phone number", () => {
    expect(ZGuestCheckoutBody.safeParse({ subscription }).success).toBe(false);
    expect(ZGuestCheckoutBody.safeParse({ subscription, phoneNumber: "9876543210" }).success).toBe(false);
    expect(ZGuestCheckoutBody.safeParse({ subscription, phoneNumber: "+919876543210" }).success).toBe(true);
    expect(ZGuestCheckoutBody.safeParse({ subscription, emailAddress: "gus@example.com" }).success).toBe(true);
  });

  it("validates coupon validation bodies", () => {
    expect(ZValidateCouponBody.parse({ subscription_plan_id: 3, coupon_code: "half" })).toEqual({
      subscription_plan_id: 3,
      coupon_code: "HALF",
    });
    expect(ZValidateCouponBody.safeParse({ subscription_plan_id: 3, coupon_code: "" }).success).toBe(false);
  });
});
