/**
 * Money in the subscriptions area: integer minor units ("cents") and an ISO 4217 currency code,
 * never a floating-point number. The dashboard's forms take a decimal amount ("12.50") and this
 * module turns it into cents by reading the digits, and back: no float ever holds money.
 *
 * Minor units: 2 for most currencies, 0 for the few without a minor unit (JPY, KRW…), 3 for the
 * few with three (BHD, KWD…), as ISO 4217 lists them. "Cents" in a field name means minor units.
 */
import { z } from "zod";

import type { Locale } from "@/i18n/locales";

const ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "ISK",
  "JPY",
  "KMF",
  "KRW",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);
const THREE_DECIMAL = new Set(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]);

/** The largest amount kept: fits a PostgreSQL integer column. */
export const MAX_CENTS = 2_147_483_647;

/** An ISO 4217 code, upper-case. */
export const ZCurrency = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 currency code"));

/** A non-negative whole number of minor units. */
export const ZCents = z.number().int("must be a whole number of cents").min(0, "must not be negative").max(MAX_CENTS);

/** How many digits the currency's minor unit has. */
export function minorUnits(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/**
 * "12.5" EUR → 1250; "1,000.00"? refused: only digits and one dot. More decimals than the currency
 * has are refused, not rounded. Returns null when the text is not such an amount.
 */
export function decimalToCents(text: string, currency: string): number | null {
  const digits = minorUnits(currency);
  const match = /^(\d{1,12})(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return null;
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const cents = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (cents > BigInt(MAX_CENTS)) return null;
  return Number(cents);
}

/** 1250 EUR → "12.50"; 1000 JPY → "1000". */
export function centsToDecimal(cents: number, currency: string): string {
  if (!Number.isSafeInteger(cents)) throw new Error("centsToDecimal: cents must be an integer");
  const digits = minorUnits(currency);
  const sign = cents < 0 ? "-" : "";
  const abs = String(Math.abs(cents));
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

const MONEY_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * An amount as the dashboard shows it. In English (the default): the digits grouped in thousands,
 * the currency's decimals, its code after ("50,000.00 USD", "1,000 JPY", "-2.50 EUR"). In another
 * of the account's locales (i18n/locales.ts), as that locale writes money: "₹1,49,900.00" in hi,
 * "1.499,00 €" in de. Exact either way: Intl is given the decimal digits, never a float.
 */
export function formatMoney(cents: number, currency: string, locale: Locale = "en"): string {
  const decimal = centsToDecimal(cents, currency);
  if (locale === "en") {
    const [whole = "", fraction] = decimal.split(".");
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${grouped}${fraction === undefined ? "" : `.${fraction}`} ${currency}`;
  }
  const key = `${locale} ${currency}`;
  let format = MONEY_FORMATS.get(key);
  if (!format) {
    const digits = minorUnits(currency);
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    // Currencies are a short list, locales eight: bounded, but a made-up code must not grow it forever.
    if (MONEY_FORMATS.size > 500) MONEY_FORMATS.clear();
    MONEY_FORMATS.set(key, format);
  }
  return format.format(decimal as `${number}`);
}

/** part / whole as a percentage with two decimals, floored ("37.50"); "0.00" when whole is 0. */
export function percentageString(part: number, whole: number): string {
  if (whole <= 0) return "0.00";
  const basisPoints = (BigInt(part) * 10000n) / BigInt(whole);
  return centsToDecimal(Number(basisPoints), "EUR");
}
