import { describe, expect, it } from "vitest";

import { SUBSCRIPTION_STATUSES_WIRE } from "./subscription-actions.schema";
import { paymentStatusLabel, subscriptionStatusLabel } from "./subscription-status.schema";

describe("subscriptionStatusLabel", () => {
  it("reads a paused subscription as Paused, whether stored cancelled or expired, never Cancelled", () => {
    for (const status of ["cancelled", "expired"]) {
      expect(subscriptionStatusLabel({ status, paused_until: "2027-01-01T00:00:00.000Z" })).toEqual({
        label: "Paused",
        tone: "blue",
        paused: true,
      });
    }
  });

  it("words every stored status when not paused", () => {
    expect(
      SUBSCRIPTION_STATUSES_WIRE.map((status) => subscriptionStatusLabel({ status, paused_until: null }).label),
    ).toEqual(SUBSCRIPTION_STATUSES_WIRE.map((status) => status[0]!.toUpperCase() + status.slice(1)));
    expect(subscriptionStatusLabel({ status: "cancelled", paused_until: null })).toMatchObject({ paused: false });
  });
});

describe("paymentStatusLabel", () => {
  it("words a payment's and a refund's stored status for staff, never the raw value", () => {
    expect(paymentStatusLabel("captured")).toBe("Paid");
    expect(paymentStatusLabel("refunded")).toBe("Refunded");
    expect(paymentStatusLabel("partially_refunded")).toBe("Partly refunded");
    expect(paymentStatusLabel("PAST_DUE")).toBe("Past due");
    expect(paymentStatusLabel("succeeded")).toBe("Succeeded");
  });
});
