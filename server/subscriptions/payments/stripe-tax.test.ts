/**
 * Stripe Tax against the fake Stripe server, through the official SDK: the Tax Calculation asked
 * (line item, tax behaviour, billing address), Stripe's breakdown as Masthead's tax lines (a
 * fractional rate rounded for rate_basis_points and kept exact, Stripe's amounts as they are),
 * inclusive prices, Stripe's refusals in words (inactive, an address it cannot place), Stripe down,
 * and the connection check's word on Stripe Tax.
 */
import { beforeEach, describe, expect, it } from "vitest";

import type { FakeStripe } from "../../testing/fake-stripe";
import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import { ADAPTER_PERMISSIONS } from "../../testing/fake-stripe-keys";
import { PaymentAdapterError, type GatewayCredentials } from "./adapter";
import { createStripeAdapter } from "./stripe";
import { calculateStripeTax, percentageToBasisPoints, STRIPE_TAX_INACTIVE } from "./stripe-tax";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));
beforeEach(() => {
  fake.reset();
  fake.tax.setRates({
    "US/NY": [
      { jurisdiction: "New York", percentage: "4.0", level: "state" },
      { jurisdiction: "New York City", percentage: "4.875", level: "city" },
    ],
    DE: [{ jurisdiction: "Germany", percentage: "19.0", level: "country", taxType: "vat", displayName: "VAT" }],
  });
});

const creds = (inclusive = false): GatewayCredentials => ({
  app_key: fake.publishableKey,
  secret: fake.secretKey,
  enabled: true,
  webhook_secret: fake.webhookSecret,
  environment: "sandbox",
  stripe_tax: { enabled: true, inclusive },
});
const options = () => ({ connection: fake.sdkOptions, maxNetworkRetries: 0 });
const ny = { country: "US", state: "NY", postal_code: "10001" };
const ask = (over: Partial<Parameters<typeof calculateStripeTax>[1]> = {}, c = creds()) =>
  calculateStripeTax(
    c,
    { amountCents: 1000, currency: "USD", reference: "plan_7", inclusive: false, address: ny, ...over },
    options(),
  );

describe("Stripe Tax calculation", () => {
  it("asks Stripe for the price's tax at the billing address and maps each jurisdiction to a line", async () => {
    const answer = await ask();
    // 4 % of 1000 = 40; 4.875 % of 1000 = 48.75 → 49 (Stripe's amount, whatever the rate rounds to).
    expect(answer).toEqual({
      calculationId: expect.stringMatching(/^taxcalc_/) as string,
      taxCents: 89,
      totalCents: 1089,
      lines: [
        {
          name: "New York Sales Tax",
          rate_basis_points: 400,
          rate_percentage: "4",
          amount_cents: 40,
          inclusive: false,
          country: "US",
          region: "NY",
          source: "stripe",
        },
        {
          name: "New York City Sales Tax",
          rate_basis_points: 488,
          rate_percentage: "4.875",
          amount_cents: 49,
          inclusive: false,
          country: "US",
          region: "NY",
          source: "stripe",
        },
      ],
    });
    const call = fake.calls.find((c) => c.path === "/v1/tax/calculations")!;
    expect(call.method).toBe("POST");
    expect(call.params).toMatchObject({
      currency: "usd",
      line_items: [{ amount: "1000", reference: "plan_7", tax_behavior: "exclusive" }],
      customer_details: { address: { country: "US", state: "NY", postal_code: "10001" }, address_source: "billing" },
      expand: ["line_items.data.tax_breakdown"],
    });
  });

  it("takes the tax out of an inclusive price: the total is the price", async () => {
    const answer = await ask({
      amountCents: 1190,
      currency: "EUR",
      inclusive: true,
      address: { country: "DE", state: null, postal_code: null },
    });
    expect(answer.totalCents).toBe(1190);
    expect(answer.taxCents).toBe(190);
    expect(answer.lines).toEqual([
      expect.objectContaining({
        name: "Germany VAT",
        rate_basis_points: 1900,
        amount_cents: 190,
        inclusive: true,
        country: "DE",
        region: null,
      }),
    ]);
    const call = fake.calls.find((c) => c.path === "/v1/tax/calculations")!;
    expect(call.params.customer_details).toEqual({ address: { country: "DE" }, address_source: "billing" });
    expect((call.params.line_items as { tax_behavior: string }[])[0]!.tax_behavior).toBe("inclusive");
  });

  it("has no line where Stripe collects no tax", async () => {
    const answer = await ask({ address: { country: "FR", state: null, postal_code: "75001" } });
    expect(answer).toMatchObject({ taxCents: 0, totalCents: 1000, lines: [] });
  });

  it("says in words when Stripe Tax is not active on the Stripe account", async () => {
    fake.tax.setActive(false);
    const error = await ask().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentAdapterError);
    expect(error).toMatchObject({ kind: "invalid", message: STRIPE_TAX_INACTIVE });
    expect(STRIPE_TAX_INACTIVE).toMatch(/activate it in Stripe \(Settings → Tax\)/);
  });

  it("asks for the full address when Stripe cannot place it (a US address without a postal code)", async () => {
    const error = await ask({ address: { country: "US", state: "NY", postal_code: null } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "invalid", message: expect.stringMatching(/postal_code/) as string });
  });

  it("is unavailable when Stripe fails", async () => {
    fake.failNext(1, 500);
    await expect(ask()).rejects.toMatchObject({ kind: "unavailable" });
  });

  it("rounds a fractional rate to whole basis points, half up", () => {
    expect(percentageToBasisPoints("8.875")).toBe(888);
    expect(percentageToBasisPoints("8.8749")).toBe(887);
    expect(percentageToBasisPoints("20.0")).toBe(2000);
    expect(percentageToBasisPoints("0.125")).toBe(13);
    expect(percentageToBasisPoints("7")).toBe(700);
  });
});

describe("the connection check with Stripe Tax on", () => {
  const check = (c: GatewayCredentials) =>
    createStripeAdapter({ connection: () => fake.sdkOptions, maxNetworkRetries: 0 }).checkConnection!(c);

  it("notes Stripe Tax active", async () => {
    const result = await check(creds());
    expect(result.ok).toBe(true);
    expect(result.notes).toContain("Stripe Tax is active: Stripe computes the tax.");
    expect(fake.calls.some((c) => c.method === "GET" && c.path === "/v1/tax/settings")).toBe(true);
  });

  it("says Stripe Tax is not active, and what Stripe still needs", async () => {
    fake.tax.setActive(false);
    const result = await check(creds());
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual({
      code: "stripe_tax_inactive",
      message: expect.stringMatching(/not active on the Stripe account \(Stripe still needs: head_office\)/) as string,
    });
  });

  it("does not ask about Stripe Tax when the account has it off", async () => {
    fake.tax.setActive(false);
    const result = await check({ ...creds(), stripe_tax: { enabled: false, inclusive: false } });
    expect(result.problems.map((p) => p.code)).not.toContain("stripe_tax_inactive");
    expect(fake.calls.some((c) => c.path === "/v1/tax/settings")).toBe(false);
  });

  it("names the permissions a restricted key lacks for Stripe Tax", async () => {
    const key = fake.addKey({
      permissions: ADAPTER_PERMISSIONS,
    });
    const result = await check({ ...creds(), secret: key });
    expect(result.problems).toEqual([
      { code: "permission_missing", message: expect.stringMatching(/Tax Settings: Read/) as string },
    ]);
  });
});
