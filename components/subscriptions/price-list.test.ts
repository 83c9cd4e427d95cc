import { describe, expect, it } from "vitest";

import { priceListOf, priceListProblem, pricesOf } from "./price-list";

describe("a plan's other prices as the form writes them", () => {
  it("reads currencies and amounts, in each currency's own decimals", () => {
    expect(priceListProblem("EUR 8.99, gbp 7.5\nJPY 1200", "USD")).toBeUndefined();
    expect(pricesOf("EUR 8.99, gbp 7.5\nJPY 1200")).toEqual({
      EUR: { amount_cents: 899 },
      GBP: { amount_cents: 750 },
      JPY: { amount_cents: 1200 },
    });
    expect(pricesOf("")).toEqual({});
  });

  it("says what is wrong: a malformed price, the default currency, a repeat", () => {
    expect(priceListProblem("EUR", "USD")).toMatch(/such as EUR 8.99/);
    expect(priceListProblem("EUR 8.999", "USD")).toMatch(/"EUR 8.999" is not/);
    expect(priceListProblem("usd 9", "USD")).toBe("USD is the default currency: its price is the Price above");
    expect(priceListProblem("EUR 1, EUR 2", "USD")).toBe("EUR is given twice");
  });

  it("writes a plan's prices back without the default one", () => {
    expect(priceListOf({ USD: { amount_cents: 900 }, EUR: { amount_cents: 899 } }, "USD")).toBe("EUR 8.99");
  });
});
