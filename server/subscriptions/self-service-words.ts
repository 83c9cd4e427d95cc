/**
 * What the self-service page says, in words, from figures the server computed: the preview of a
 * plan switch ("You pay $4.17 now …"), a retention offer, money and days. Pure (no I/O), so the
 * page shows exactly what the signed preview holds and the unit tests pin the sentences.
 */
import { periodInWords } from "./catalogue.schema";
import { minorUnits } from "./money.schema";

/** 417 USD → "$4.17"; 1000 JPY → "¥1,000". */
export function moneyInWords(cents: number, currency: string): string {
  const digits = minorUnits(currency);
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(cents / 10 ** digits);
  } catch {
    return `${(cents / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** A UTC day as "1 Dec 2026". */
export function dayInWords(at: Date | string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(at),
  );
}

export type SwitchFigures = {
  planName: string;
  /** "now": applied at once (one-time plans, prorated); "scheduled": at `appliesAt`. */
  applies: "now" | "scheduled";
  appliesAt: string;
  /** What the reader pays at the switch; null: nothing now, the next charge pays (recurring). */
  chargeCents: number | null;
  creditCents: number;
  priceCents: number;
  currency: string;
  durationLength: number;
  durationUnit: string;
  recurring: boolean;
};

/** The preview of a switch as the reader reads it before confirming. */
export function switchInWords(f: SwitchFigures): string {
  const price = moneyInWords(f.priceCents, f.currency);
  const per = periodInWords(f.durationLength, f.durationUnit, { per: true });
  const day = dayInWords(f.appliesAt);
  if (f.recurring)
    return `Nothing to pay now. You keep your current plan until ${day}; from then you pay ${price} ${per} for ${f.planName}.`;
  if (f.applies === "now") {
    const credit =
      f.creditCents > 0
        ? ` (${price} less ${moneyInWords(f.creditCents, f.currency)} for the unused part of your plan)`
        : "";
    const pay =
      f.chargeCents && f.chargeCents > 0
        ? `You pay ${moneyInWords(f.chargeCents, f.currency)} now${credit}`
        : `Nothing to pay now${credit}`;
    return `${pay}, and ${f.planName} starts today for ${periodInWords(f.durationLength, f.durationUnit)}.`;
  }
  const pay =
    f.chargeCents && f.chargeCents > 0
      ? `You pay ${moneyInWords(f.chargeCents, f.currency)} now`
      : "Nothing to pay now";
  return `${pay}; ${f.planName} starts on ${day}, when your current period ends, for ${periodInWords(f.durationLength, f.durationUnit)}.`;
}

/** A retention offer as the reader reads it on the cancel form. */
export function offerInWords(
  offer:
    | { kind: "coupon"; periods: number; percentOff: number | null; amountOffCents: number | null; currency: string }
    | { kind: "pause"; periods: number; durationLength: number; durationUnit: string },
): string {
  if (offer.kind === "pause") {
    const span = periodInWords(offer.periods * offer.durationLength, offer.durationUnit);
    return `Pause instead: nothing to pay for ${span}; your subscription resumes after that.`;
  }
  const off =
    offer.percentOff !== null
      ? `${offer.percentOff}% off`
      : `${moneyInWords(offer.amountOffCents ?? 0, offer.currency)} off`;
  return `Stay and get ${off} your next ${offer.periods === 1 ? "payment" : `${offer.periods} payments`}.`;
}
