/** What the self-service page says about a switch and an offer (self-service-words.ts), in words. */
import { describe, expect, it } from "vitest";

import { moneyInWords, offerInWords, switchInWords, timeInWords, type SwitchFigures } from "./self-service-words";

const base: SwitchFigures = {
  timeZone: "UTC",
  planName: "Premium",
  applies: "now",
  appliesAt: "2026-12-01T00:00:00.000Z",
  chargeCents: 417,
  creditCents: 783,
  priceCents: 1200,
  currency: "USD",
  durationLength: 1,
  durationUnit: "months",
  recurring: false,
};

describe("moneyInWords and timeInWords", () => {
  it("write money in the currency's own minor units and a time in the one format, the zone named", () => {
    expect(moneyInWords(417, "USD")).toBe("$4.17");
    expect(moneyInWords(1000, "JPY")).toBe("¥1,000");
    expect(moneyInWords(1234, "EUR")).toBe("€12.34");
    expect(timeInWords("2026-12-01T23:30:00.000Z", "UTC")).toBe("1 Dec 2026, 23:30 UTC");
    // East of UTC the instant is already the next day; west of it, still the day before.
    expect(timeInWords("2026-12-01T23:30:00.000Z", "Europe/Paris")).toBe("2 Dec 2026, 00:30 CET");
    expect(timeInWords(new Date("2026-12-01T00:00:00.000Z"), "America/New_York")).toBe("30 Nov 2026, 19:00 GMT-5");
  });
});

describe("switchInWords", () => {
  it("says a prorated switch's charge now, its credit, and the new plan's period", () => {
    expect(switchInWords(base)).toBe(
      "You pay $4.17 now ($12.00 less $7.83 for the unused part of your plan), and Premium starts today for 1 month.",
    );
    expect(switchInWords({ ...base, chargeCents: 0, creditCents: 1500 })).toBe(
      "Nothing to pay now ($12.00 less $15.00 for the unused part of your plan), and Premium starts today for 1 month.",
    );
  });

  it("says a recurring switch costs nothing now and when the new price starts", () => {
    expect(switchInWords({ ...base, recurring: true, applies: "scheduled", chargeCents: null })).toBe(
      "Nothing to pay now. You keep your current plan until 1 Dec 2026, 00:00 UTC; from then you pay $12.00 per month for Premium.",
    );
  });

  it("names the time the switch applies at in the account's zone, the zone named", () => {
    const scheduled = { ...base, recurring: true, applies: "scheduled" as const, chargeCents: null };
    expect(switchInWords({ ...scheduled, timeZone: "Europe/Paris" })).toBe(
      "Nothing to pay now. You keep your current plan until 1 Dec 2026, 01:00 CET; from then you pay $12.00 per month for Premium.",
    );
    expect(switchInWords({ ...scheduled, timeZone: "America/New_York" })).toBe(
      "Nothing to pay now. You keep your current plan until 30 Nov 2026, 19:00 GMT-5; from then you pay $12.00 per month for Premium.",
    );
  });

  it("says a one-time switch scheduled for the period end, paid now", () => {
    expect(switchInWords({ ...base, applies: "scheduled", chargeCents: 1200, durationLength: 3 })).toBe(
      "You pay $12.00 now; Premium starts on 1 Dec 2026, 00:00 UTC, when your current period ends, for 3 months.",
    );
  });
});

describe("switchInWords: a recurring switch applied now, prorated", () => {
  const recurring: SwitchFigures = {
    ...base,
    recurring: true,
    applies: "now",
    chargeCents: 100,
    creditCents: 500,
    restCents: 600,
    carryCents: 0,
    resetsCycle: false,
    nextChargeCents: 1200,
    nextChargeAt: "2026-07-01T00:00:00.000Z",
  };

  it("says an upgrade's charge now, what it is made of, and the next charge", () => {
    expect(switchInWords(recurring)).toBe(
      "You pay $1.00 now ($6.00 for Premium for the rest of this period, less $5.00 for the unused part of your plan), and Premium starts today; your next charge of $12.00 is on 1 Jul 2026, 00:00 UTC.",
    );
  });

  it("says a downgrade's credit on the next charges", () => {
    expect(
      switchInWords({
        ...recurring,
        planName: "Standard",
        priceCents: 1000,
        chargeCents: 0,
        creditCents: 600,
        restCents: 500,
        carryCents: 100,
        nextChargeCents: 900,
      }),
    ).toBe(
      "You get a credit of $1.00 on your next charges ($6.00 for the unused part of your plan, less $5.00 for Standard for the rest of this period), and Standard starts today; your next charge of $9.00 is on 1 Jul 2026, 00:00 UTC.",
    );
  });

  it("says a new billing cycle's full period paid now, and a switch costing nothing", () => {
    expect(
      switchInWords({
        ...recurring,
        planName: "Yearly",
        priceCents: 9000,
        restCents: 9000,
        chargeCents: 8500,
        resetsCycle: true,
        durationUnit: "years",
        nextChargeCents: 9000,
        nextChargeAt: "2027-06-16T00:00:00.000Z",
      }),
    ).toBe(
      "You pay $85.00 now ($90.00 for 1 year of Yearly, less $5.00 for the unused part of your plan), and Yearly starts today; your next charge of $90.00 is on 16 Jun 2027, 00:00 UTC.",
    );
    expect(switchInWords({ ...recurring, chargeCents: 0, carryCents: 0 })).toBe(
      "Nothing to pay now, and Premium starts today; your next charge of $12.00 is on 1 Jul 2026, 00:00 UTC.",
    );
  });

  /** A recurring switch at the end of the period, for `scheduledReason`. */
  const waiting = (scheduledReason: "not_charged" | "gateway_charges") =>
    switchInWords({ ...base, recurring: true, applies: "scheduled", chargeCents: null, scheduledReason });

  it("says why a recurring switch waits when nobody charges a stored card", () => {
    expect(waiting("not_charged")).toMatch(
      /per month for Premium\. This subscription is not charged to a stored card, so the change waits for the end of the period\.$/,
    );
  });

  it("says why a recurring switch waits when its gateway charges by itself", () => {
    expect(waiting("gateway_charges")).toBe(
      "Nothing to pay now. You keep your current plan until 1 Dec 2026, 00:00 UTC; from then you pay $12.00 per month for Premium. Your payment provider charges this subscription on its own schedule, so the change waits for the next charge.",
    );
  });
});

describe("offerInWords", () => {
  it("says a coupon off the next payments, or a pause", () => {
    expect(offerInWords({ kind: "coupon", periods: 3, percentOff: 50, amountOffCents: null, currency: "USD" })).toBe(
      "Stay and get 50% off your next 3 payments.",
    );
    expect(offerInWords({ kind: "coupon", periods: 1, percentOff: null, amountOffCents: 300, currency: "USD" })).toBe(
      "Stay and get $3.00 off your next payment.",
    );
    expect(offerInWords({ kind: "pause", periods: 2, durationLength: 1, durationUnit: "months" })).toBe(
      "Pause instead: nothing to pay for 2 months; your subscription resumes after that.",
    );
  });
});
