import { describe, expect, it } from "vitest";

import {
  invoiceCreditApplied,
  invoiceFigures,
  invoiceServicePeriod,
  invoiceToWire,
  servicePeriodWords,
} from "./invoice-figures";

const gst = { name: "GST", rate_basis_points: 1800, amount_cents: 0, inclusive: false, country: "IN", region: null };

describe("invoiceFigures", () => {
  it("shows checkout's terms when the charge is what they make a period cost", () => {
    const f = invoiceFigures({
      amountCents: 590,
      planAmountCents: 1000,
      discountDetail: {
        code: "HALF",
        discount_type: "percent",
        title: "Half",
        value: 50,
        discounted_price_cents: 500,
        price_cents: 1000,
        price_currency: "USD",
      },
      taxDetail: [{ ...gst, amount_cents: 90 }],
    });
    expect(f).toEqual({
      basePriceCents: 1000,
      discountCents: 500,
      couponCode: "HALF",
      discountPercentage: 50,
      netCents: 500,
      taxLines: [{ name: "GST", rate_basis_points: 1800, amount_cents: 90, inclusive: false }],
      roundOffCents: 0,
      amountCents: 590,
    });
  });

  it("splits inclusive taxes out of the price, the last line taking the rounding remainder", () => {
    const f = invoiceFigures({
      amountCents: 1000,
      planAmountCents: 1000,
      discountDetail: {},
      taxDetail: [
        { ...gst, name: "CGST", rate_basis_points: 900, inclusive: true },
        { ...gst, name: "SGST", rate_basis_points: 900, inclusive: true },
      ],
    });
    expect(f.netCents).toBe(847);
    expect(f.taxLines.map((l) => l.amount_cents)).toEqual([76, 77]);
    expect(f.netCents + 76 + 77 + f.roundOffCents).toBe(1000);
    expect(f.roundOffCents).toBe(0);
    expect(f).toMatchObject({ basePriceCents: 1000, discountCents: 0, couponCode: null, discountPercentage: null });
  });

  it("takes a charge of another amount as it is: no discount, the frozen rates counted inside it", () => {
    const contribution = invoiceFigures({ amountCents: 2500, planAmountCents: 500, discountDetail: {}, taxDetail: [] });
    expect(contribution).toMatchObject({ basePriceCents: 2500, discountCents: 0, netCents: 2500, taxLines: [] });
    const other = invoiceFigures({
      amountCents: 1180,
      planAmountCents: 900,
      discountDetail: {},
      taxDetail: [{ ...gst, amount_cents: 162 }],
    });
    expect(other.netCents).toBe(1000);
    expect(other.taxLines).toEqual([{ name: "GST", rate_basis_points: 1800, amount_cents: 180, inclusive: true }]);
    expect(other.roundOffCents).toBe(0);
  });

  it("shows Stripe Tax's lines as Stripe computed them: its amounts and exact rates, not recomputed", () => {
    const stripe = (name: string, bp: number, pct: string, amount: number, inclusive = false) => ({
      name,
      rate_basis_points: bp,
      rate_percentage: pct,
      amount_cents: amount,
      inclusive,
      country: "US",
      region: "NY",
      source: "stripe" as const,
    });
    // Stripe said 50 cents for New York City: recomputing from 488 bp would make 49, so the line
    // shows that the amount is Stripe's, not a recomputation.
    const f = invoiceFigures({
      amountCents: 1090,
      planAmountCents: 1000,
      discountDetail: {},
      taxDetail: [stripe("New York Sales Tax", 400, "4", 40), stripe("New York City Sales Tax", 488, "4.875", 50)],
    });
    expect(f).toMatchObject({ basePriceCents: 1000, netCents: 1000, roundOffCents: 0, amountCents: 1090 });
    expect(f.taxLines).toEqual([
      { name: "New York Sales Tax", rate_basis_points: 400, rate_percentage: "4", amount_cents: 40, inclusive: false },
      {
        name: "New York City Sales Tax",
        rate_basis_points: 488,
        rate_percentage: "4.875",
        amount_cents: 50,
        inclusive: false,
      },
    ]);
    const inclusive = invoiceFigures({
      amountCents: 1190,
      planAmountCents: 1190,
      discountDetail: {},
      taxDetail: [{ ...stripe("Germany VAT", 1900, "19", 190, true), country: "DE", region: null }],
    });
    expect(inclusive).toMatchObject({ basePriceCents: 1190, netCents: 1000, roundOffCents: 0 });
    expect(inclusive.taxLines.map((l) => l.amount_cents)).toEqual([190]);
    const wire = invoiceToWire({
      id: 1,
      sequenceNumber: 1,
      currency: "USD",
      basePriceCents: 1000,
      discountCents: 0,
      couponCode: null,
      discountPercentage: null,
      netCents: 1000,
      taxLines: f.taxLines,
      roundOffCents: 0,
      amountCents: 1090,
      externalPaymentId: null,
      subscriptionId: 1,
      sellerName: "S",
      sellerAddress: null,
      sellerTaxId: null,
      periodStart: null,
      periodEnd: null,
      createdAt: new Date(0),
    });
    expect(wire.invoice_taxes["New York City Sales Tax"]).toEqual({
      percentage: 4.875,
      amount: "0.50",
      currency: "USD",
    });
  });
});

describe("invoiceToWire", () => {
  it("writes decimals in the currency's minor units, {} without a discount, and names taxes uniquely", () => {
    const wire = invoiceToWire({
      id: 7,
      sequenceNumber: 3,
      currency: "JPY",
      basePriceCents: 1000,
      discountCents: 0,
      couponCode: null,
      discountPercentage: null,
      netCents: 1000,
      taxLines: [
        { name: "VAT", rate_basis_points: 1000, amount_cents: 100, inclusive: false },
        { name: "VAT", rate_basis_points: 250, amount_cents: 25, inclusive: false },
      ],
      roundOffCents: 0,
      amountCents: 1125,
      externalPaymentId: "pay_1",
      subscriptionId: 4,
      sellerName: "Daily Masthead Ltd",
      sellerAddress: "1 Fleet St\nLondon",
      sellerTaxId: "GB123456789",
      periodStart: new Date("2026-11-01T00:00:00Z"),
      periodEnd: new Date("2026-12-01T00:00:00Z"),
      createdAt: new Date("2026-11-23T10:00:00Z"),
    });
    expect(wire).toMatchObject({
      sequenced_invoice_number: 3,
      base_price: "1000",
      amount_after_discount_before_tax: "1000",
      discount_details: {},
      invoice_taxes: {
        VAT: { percentage: 10, amount: "100", currency: "JPY" },
        "VAT (2)": { percentage: 2.5, amount: "25", currency: "JPY" },
      },
      round_off: "0",
      created_at: "2026-11-23T10:00:00.000Z",
      seller: { name: "Daily Masthead Ltd", address: "1 Fleet St\nLondon", tax_id: "GB123456789" },
      service_period: { start: "2026-11-01T00:00:00.000Z", end: "2026-12-01T00:00:00.000Z" },
    });
  });
});

describe("invoiceServicePeriod", () => {
  const subscription = {
    startTimestamp: new Date("2026-10-15T09:30:00Z"),
    endTimestamp: new Date("2026-12-15T09:30:00Z"),
  };

  it("takes the period a recurring charge recorded on its payment", () => {
    const details = {
      recurring_charge: { source: "lifecycle", period_start: "2026-11-15T09:30:00.000Z", period_end: null },
    };
    expect(invoiceServicePeriod(details, subscription)).toEqual({
      start: new Date("2026-11-15T09:30:00Z"),
      end: null,
    });
  });

  it("takes the subscription's period for any other payment (the first one)", () => {
    expect(invoiceServicePeriod({ gateway: { status: "captured" } }, subscription)).toEqual({
      start: subscription.startTimestamp,
      end: subscription.endTimestamp,
    });
    expect(invoiceServicePeriod(null, subscription).start).toEqual(subscription.startTimestamp);
    expect(invoiceServicePeriod({ recurring_charge: { period_start: "nonsense" } }, subscription).start).toEqual(
      subscription.startTimestamp,
    );
  });
});

describe("servicePeriodWords", () => {
  it("writes the period's two instants in the one format, in the zone given", () => {
    const november = { start: new Date("2026-11-01T00:00:00Z"), end: new Date("2026-12-01T00:00:00Z") };
    expect(servicePeriodWords(november, "UTC")).toBe("1 Nov 2026, 00:00 UTC – 1 Dec 2026, 00:00 UTC");
    expect(servicePeriodWords(november, "Europe/Paris")).toBe("1 Nov 2026, 01:00 CET – 1 Dec 2026, 01:00 CET");
    expect(servicePeriodWords(november, "America/New_York")).toBe(
      "31 Oct 2026, 20:00 GMT-4 – 30 Nov 2026, 19:00 GMT-5",
    );
    expect(
      servicePeriodWords(
        { start: new Date("2026-11-15T09:30:00Z"), end: new Date("2026-12-15T09:30:00Z") },
        "Asia/Tokyo",
      ),
    ).toBe("15 Nov 2026, 18:30 GMT+9 – 15 Dec 2026, 18:30 GMT+9");
  });

  it("says from when without an end, and nothing without a start", () => {
    expect(servicePeriodWords({ start: new Date("2026-11-01T00:00:00Z"), end: null }, "UTC")).toBe(
      "from 1 Nov 2026, 00:00 UTC",
    );
    expect(servicePeriodWords({ start: null, end: null }, "UTC")).toBeNull();
  });
});

describe("invoiceCreditApplied", () => {
  it("reads the credit a recurring charge used, 0 when none or not a whole number of cents", () => {
    const charge = (credit: unknown) => ({
      recurring_charge: { period_start: "2026-01-01T00:00:00.000Z", credit_applied_cents: credit },
    });
    expect(invoiceCreditApplied(charge(399))).toBe(399);
    expect(invoiceCreditApplied(charge(undefined))).toBe(0);
    expect(invoiceCreditApplied(charge(-5))).toBe(0);
    expect(invoiceCreditApplied(charge(1.5))).toBe(0);
    expect(invoiceCreditApplied({})).toBe(0);
    expect(invoiceCreditApplied(null)).toBe(0);
  });
});
