/**
 * A plan's prices in other currencies as the plan form writes them: "EUR 8.99, GBP 7.99" (commas
 * or lines between prices), sent as `prices` ({currency: {amount_cents}}). The default price and
 * currency are fields of their own. Pure.
 */
import { nullPrototypeRecord } from "@/server/own-keys";
import { centsToDecimal, decimalToCents } from "@/server/subscriptions/money.schema";

export type Prices = Record<string, { amount_cents: number }>;

const PRICE = /^([A-Za-z]{3})\s+(\S+)$/;

function entries(text: string): string[] {
  return text
    .split(/[,\n]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Why the text is not a list of prices (or repeats one, or names the default currency), if it is not. */
export function priceListProblem(text: string, defaultCurrency: string): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries(text)) {
    const match = PRICE.exec(entry);
    const currency = match?.[1]!.toUpperCase();
    if (!match || !currency || decimalToCents(match[2]!, currency) === null)
      return `Write each price as a currency code and an amount, such as EUR 8.99 ("${entry}" is not)`;
    if (currency === defaultCurrency.trim().toUpperCase())
      return `${currency} is the default currency: its price is the Price above`;
    if (seen.has(currency)) return `${currency} is given twice`;
    seen.add(currency);
  }
  return seen.size > 19 ? "At most 19 other currencies" : undefined;
}

/** The prices the text gives (call after `priceListProblem` found none). */
export function pricesOf(text: string): Prices {
  const prices: Prices = nullPrototypeRecord();
  for (const entry of entries(text)) {
    const match = PRICE.exec(entry);
    if (!match) continue;
    const currency = match[1]!.toUpperCase();
    const cents = decimalToCents(match[2]!, currency);
    if (cents !== null) prices[currency] = { amount_cents: cents };
  }
  return prices;
}

/** A plan's prices other than its default one, as the form writes them. */
export function priceListOf(prices: Prices, defaultCurrency: string): string {
  return Object.entries(prices)
    .filter(([currency]) => currency !== defaultCurrency)
    .map(([currency, price]) => `${currency} ${centsToDecimal(price.amount_cents, currency)}`)
    .join(", ");
}
