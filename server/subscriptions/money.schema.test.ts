import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { LOCALES } from "@/i18n/locales";

import {
  centsToDecimal,
  decimalToCents,
  formatMoney,
  MAX_CENTS,
  minorUnits,
  percentageString,
  ZCurrency,
} from "./money.schema";

describe("money", () => {
  it("turns decimal text into cents by its digits, never through a float", () => {
    expect(decimalToCents("12.5", "EUR")).toBe(1250);
    expect(decimalToCents("12.50", "eur")).toBe(1250);
    expect(decimalToCents("0.1", "USD")).toBe(10);
    expect(decimalToCents("0.29", "USD")).toBe(29); // 0.29 * 100 is 28.999999999999996 as a float
    expect(decimalToCents("1.005", "USD")).toBeNull(); // more decimals than the currency has
    expect(decimalToCents(" 7 ", "INR")).toBe(700);
    expect(decimalToCents("7.", "INR")).toBe(700);
    expect(decimalToCents("1000", "JPY")).toBe(1000);
    expect(decimalToCents("1000.5", "JPY")).toBeNull();
    expect(decimalToCents("1.234", "KWD")).toBe(1234);
  });

  it("refuses what is not an amount", () => {
    for (const bad of ["", "-1", "1,000.00", "1e3", "abc", ".5", "12.5.1", "NaN", "Infinity"]) {
      expect(decimalToCents(bad, "EUR"), bad).toBeNull();
    }
    expect(decimalToCents(String(MAX_CENTS / 100 + 1), "EUR")).toBeNull();
  });

  it("prints cents as a decimal string", () => {
    expect(centsToDecimal(1250, "EUR")).toBe("12.50");
    expect(centsToDecimal(5, "EUR")).toBe("0.05");
    expect(centsToDecimal(0, "EUR")).toBe("0.00");
    expect(centsToDecimal(1000, "JPY")).toBe("1000");
    expect(centsToDecimal(1234, "KWD")).toBe("1.234");
    expect(centsToDecimal(-250, "USD")).toBe("-2.50");
    expect(() => centsToDecimal(1.5, "USD")).toThrow();
  });

  it("shows an amount with its digits grouped in thousands and its code after", () => {
    expect(formatMoney(5_000_000, "USD")).toBe("50,000.00 USD");
    expect(formatMoney(299_000, "INR")).toBe("2,990.00 INR");
    expect(formatMoney(999, "USD")).toBe("9.99 USD");
    expect(formatMoney(100_000, "JPY")).toBe("100,000 JPY");
    expect(formatMoney(1_234_567, "KWD")).toBe("1,234.567 KWD");
    expect(formatMoney(-123_456, "EUR")).toBe("-1,234.56 EUR");
    expect(formatMoney(MAX_CENTS, "EUR")).toMatch(/^\d{1,3}(,\d{3})*\.\d\d EUR$/);
  });

  it("writes money as the account's locale does, from the exact digits", () => {
    // CLDR's ways (the examples of docs/i18n.md): lakh grouping in Hindi and Tamil, the euro after in German.
    expect(formatMoney(14_990_000, "INR", "hi")).toBe("₹1,49,900.00");
    expect(formatMoney(14_990_000, "INR", "ta")).toBe("₹1,49,900.00");
    expect(formatMoney(149_900, "EUR", "de")).toBe("1.499,00\u00a0€");
    expect(formatMoney(149_900, "EUR", "fr")).toBe("1\u202f499,00\u00a0€");
    expect(formatMoney(149_900, "USD", "es")).toBe("1499,00\u00a0US$");
    expect(formatMoney(149_900, "BRL", "pt-BR")).toBe("R$\u00a01.499,00");
    expect(formatMoney(100_000, "JPY", "de")).toBe("100.000\u00a0¥");
    expect(formatMoney(1_234_567, "KWD", "hi")).toMatch(/1,234\.567/);
    expect(formatMoney(-250, "EUR", "de")).toBe("-2,50\u00a0€");
    expect(formatMoney(149_900, "USD", "en")).toBe("1,499.00 USD");
  });

  it("keeps every digit of any amount in every locale", () => {
    const toLatin = (text: string) => text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }),
        fc.constantFrom("USD", "EUR", "INR", "JPY", "KWD", "BRL", "CLP", "BHD"),
        fc.constantFrom(...LOCALES),
        (cents, currency, locale) => {
          const digits = (text: string) =>
            toLatin(text)
              .replace(/\D/g, "")
              .replace(/^0+(?=\d)/, "");
          expect(digits(formatMoney(cents, currency, locale))).toBe(digits(centsToDecimal(cents, currency)));
        },
      ),
    );
  });

  it("round-trips", () => {
    for (const cents of [0, 1, 99, 100, 123456, MAX_CENTS])
      expect(decimalToCents(centsToDecimal(cents, "EUR"), "EUR")).toBe(cents);
  });

  it("knows minor units and currency codes", () => {
    expect(minorUnits("usd")).toBe(2);
    expect(minorUnits("JPY")).toBe(0);
    expect(ZCurrency.parse(" inr ")).toBe("INR");
    expect(ZCurrency.safeParse("EURO").success).toBe(false);
  });

  it("gives a floored two-decimal percentage", () => {
    expect(percentageString(375, 1000)).toBe("37.50");
    expect(percentageString(1, 3)).toBe("33.33");
    expect(percentageString(5, 0)).toBe("0.00");
    expect(percentageString(2000, 1000)).toBe("200.00");
  });
});
