/**
 * The values of readers' and subscriptions' CSV rows, read exactly or refused: booleans, dates,
 * e-mails and identities, money. Pure. A value that could mean two things (an amount "9" in
 * dollars: 9 dollars or 9 cents?) is refused with the reason, never guessed.
 */
import { decimalToCents, MAX_CENTS, minorUnits } from "../../subscriptions/money.schema";
import { normaliseEmail, parseExportDate } from "../comments/records";

/** "true"/"false", "1"/"0", "yes"/"no" (any case); empty: null; anything else: "invalid". */
export function parseCsvBoolean(text: string | undefined): boolean | null | "invalid" {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "") return null;
  if (value === "true" || value === "1" || value === "yes") return true;
  if (value === "false" || value === "0" || value === "no") return false;
  return "invalid";
}

/**
 * A date and time: ISO 8601 ("2026-01-31T10:00:00Z", "…+02:00", the zone left out: UTC) or
 * "2026-01-31 10:00:00" (UTC, as Stripe's and Ghost's exports write it). Empty: null.
 */
export function parseCsvDate(text: string | undefined): Date | null | "invalid" {
  return parseExportDate(text);
}

/** An identity "provider:id" (provider as the subscribers API takes it), or null when it is not one. */
export function parseIdentity(text: string): { provider: string; externalId: string } | null {
  const match = /^([a-z][a-z0-9_-]{1,31}):(.+)$/i.exec(text.trim());
  if (!match) return null;
  const externalId = match[2]!.trim();
  if (externalId.length > 254 || /[\u0000-\u001f\u007f]/.test(externalId)) return null;
  return { provider: match[1]!.toLowerCase(), externalId };
}

export { normaliseEmail };

/** A currency code, upper-cased, or null when it is not three letters. */
export function parseCurrency(text: string | undefined): string | null {
  const value = (text ?? "").trim().toUpperCase();
  return /^[A-Z]{3}$/.test(value) ? value : null;
}

/**
 * What a row says it pays, in integer minor units of `currency`:
 * - `amount_cents`: a whole number of minor units ("900");
 * - `amount`: a decimal in the currency's units written with all its minor digits ("9.00" USD,
 *   "900" JPY, "9.000" KWD). "9" in a currency with cents is ambiguous (9.00 or 0.09?) and
 *   refused, as are more decimals than the currency has, signs, spaces inside, thousands
 *   separators and decimal commas.
 * Both given: they must agree.
 */
export function parseAmount(
  values: { amount?: string; amount_cents?: string },
  currency: string,
): { cents: number } | { error: string } {
  const amount = values.amount?.trim() ?? "";
  const centsText = values.amount_cents?.trim() ?? "";
  let cents: number | null = null;
  if (centsText !== "") {
    if (!/^\d{1,10}$/.test(centsText) || Number(centsText) > MAX_CENTS) {
      return { error: `its amount_cents "${centsText}" is not a whole number of cents` };
    }
    cents = Number(centsText);
  }
  if (amount !== "") {
    const digits = minorUnits(currency);
    const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${digits}}$`);
    const parsed = shape.test(amount) ? decimalToCents(amount, currency) : null;
    if (parsed === null) {
      const example = digits === 0 ? "900" : `9.${"0".repeat(digits)}`;
      return {
        error: `its amount "${amount}" is not an amount of ${currency} written with its ${digits} decimal(s) (e.g. ${example}): refused rather than guessed`,
      };
    }
    if (cents !== null && cents !== parsed) {
      return { error: `its amount "${amount}" and amount_cents "${centsText}" disagree` };
    }
    cents = parsed;
  }
  if (cents === null) return { error: "it has no amount" };
  return { cents };
}
