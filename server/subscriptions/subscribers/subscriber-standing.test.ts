/** A reader's standing as a subscriber (subscriber-standing.ts), from their subscriptions. */
import { describe, expect, it } from "vitest";

import { subscriberStanding } from "./subscriber-standing";
import type { SubscriptionTiming } from "./subscription-state";

const now = new Date("2026-06-15T12:00:00Z");
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day);

function sub(over: Partial<SubscriptionTiming> = {}): SubscriptionTiming {
  return {
    status: "ACTIVE",
    startTimestamp: at(-10),
    endTimestamp: at(20),
    cancelledAt: null,
    trialEndsAt: null,
    graceEndsAt: null,
    recurring: true,
    ...over,
  };
}

describe("subscriberStanding", () => {
  it("says none for a reader who never subscribed, or whose checkouts failed", () => {
    expect(subscriberStanding([], now)).toBe("none");
    expect(subscriberStanding([sub({ status: "FAILED" }), sub({ status: "PENDING" })], now)).toBe("none");
  });

  it("tells active, trial, grace, cancelling and lapsed apart", () => {
    expect(subscriberStanding([sub()], now)).toBe("active");
    expect(subscriberStanding([sub({ trialEndsAt: at(4) })], now)).toBe("trial");
    expect(subscriberStanding([sub({ endTimestamp: at(-1), graceEndsAt: at(6) })], now)).toBe("grace");
    expect(subscriberStanding([sub({ status: "CANCELLED", cancelledAt: at(-2) })], now)).toBe("cancelling");
    expect(subscriberStanding([sub({ status: "EXPIRED", endTimestamp: at(-3) })], now)).toBe("lapsed");
    expect(subscriberStanding([sub({ status: "CANCELLED", endTimestamp: at(-1), cancelledAt: at(-9) })], now)).toBe(
      "lapsed",
    );
  });

  it("says paused for a paused subscription, stored cancelled or expired, below active", () => {
    const held = { ...sub({ status: "CANCELLED", cancelledAt: at(-2) }), id: 7 };
    const over = { ...sub({ status: "EXPIRED", endTimestamp: at(-3) }), id: 8 };
    expect(subscriberStanding([held], now, new Set([7]))).toBe("paused");
    expect(subscriberStanding([over], now, new Set([8]))).toBe("paused");
    expect(subscriberStanding([held], now)).toBe("cancelling");
    expect(subscriberStanding([held, { ...sub(), id: 9 }], now, new Set([7]))).toBe("active");
  });

  it("says the strongest standing when subscriptions differ", () => {
    const lapsed = sub({ status: "EXPIRED", endTimestamp: at(-3) });
    const trial = sub({ trialEndsAt: at(4) });
    expect(subscriberStanding([lapsed, trial], now)).toBe("trial");
    expect(subscriberStanding([trial, sub()], now)).toBe("active");
    expect(subscriberStanding([sub({ status: "FAILED" }), lapsed], now)).toBe("lapsed");
  });
});
