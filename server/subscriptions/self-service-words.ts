/**
 * What the self-service page says, in words, from figures the server computed: the preview of a
 * plan switch ("You pay $4.17 now …"), a retention offer, money and times. Pure (no I/O), so the
 * page shows exactly what the signed preview holds and the unit tests pin the sentences.
 *
 * Times are the instants the server honours (a switch's `applies_at`, the next charge), written in
 * the one format with the zone named ("1 Dec 2026, 01:00 CET"): the reader's when the page sends it,
 * else the account's (docs/dashboard.md "Dates and times").
 */
import { ownValue } from "@/server/own-keys";

import { formatInstant } from "../dates.schema";
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

/** An instant in `zone`, the zone named: "1 Dec 2026, 01:00 CET". */
export function timeInWords(at: Date | string, zone: string): string {
  return formatInstant(new Date(at), zone);
}

export type SwitchFigures = {
  planName: string;
  /** "now": applied at once (one-time plans, prorated); "scheduled": at `appliesAt`. */
  applies: "now" | "scheduled";
  appliesAt: string;
  /** The zone the times are written in (the reader's, else the account's), named in every time. */
  timeZone: string;
  /** What the reader pays at the switch; null: nothing now, the next charge pays (recurring). */
  chargeCents: number | null;
  creditCents: number;
  priceCents: number;
  currency: string;
  durationLength: number;
  durationUnit: string;
  recurring: boolean;
  /** A recurring switch applied now: the new plan's price for the rest of the period, the credit carried, the cycle reset. */
  restCents?: number;
  carryCents?: number;
  resetsCycle?: boolean;
  /** A recurring switch: the next renewal charge, after any credit balance, and when. */
  nextChargeCents?: number;
  nextChargeAt?: string | null;
  /** A recurring switch that waits: why (plan-switch-terms.ts ScheduledReason). */
  scheduledReason?: string;
};

const WAITS_BECAUSE: Record<string, string> = {
  gateway_charges:
    " Your payment provider charges this subscription on its own schedule, so the change waits for the next charge.",
  gateway_credit:
    " Your payment provider would keep the difference as a credit of its own, so the cheaper plan starts at the next charge.",
  not_charged: " This subscription is not charged to a stored card, so the change waits for the end of the period.",
  trial: " During your free trial there is nothing to prorate, so the change waits until the trial ends.",
};

/** A recurring switch applied now, prorated: what is paid or credited now, and the next charge. */
function recurringNowInWords(f: SwitchFigures): string {
  const m = (c: number) => moneyInWords(c, f.currency);
  const rest = f.restCents ?? f.priceCents;
  const restWords = f.resetsCycle
    ? `${m(rest)} for ${periodInWords(f.durationLength, f.durationUnit)} of ${f.planName}`
    : `${m(rest)} for ${f.planName} for the rest of this period`;
  const next =
    f.nextChargeAt && f.nextChargeCents !== undefined
      ? `; your next charge of ${m(f.nextChargeCents)} is on ${timeInWords(f.nextChargeAt, f.timeZone)}`
      : "";
  const starts = `${f.planName} starts today${next}.`;
  if (f.chargeCents && f.chargeCents > 0) {
    const credit = f.creditCents > 0 ? `, less ${m(f.creditCents)} for the unused part of your plan` : "";
    return `You pay ${m(f.chargeCents)} now (${restWords}${credit}), and ${starts}`;
  }
  if (f.carryCents && f.carryCents > 0)
    return `You get a credit of ${m(f.carryCents)} on your next charges (${m(f.creditCents)} for the unused part of your plan, less ${restWords}), and ${starts}`;
  return `Nothing to pay now, and ${starts}`;
}

/** The preview of a switch as the reader reads it before confirming. */
export function switchInWords(f: SwitchFigures): string {
  const price = moneyInWords(f.priceCents, f.currency);
  const per = periodInWords(f.durationLength, f.durationUnit, { per: true });
  const day = timeInWords(f.appliesAt, f.timeZone);
  if (f.recurring && f.applies === "now") return recurringNowInWords(f);
  if (f.recurring)
    return `Nothing to pay now. You keep your current plan until ${day}; from then you pay ${price} ${per} for ${f.planName}.${ownValue(WAITS_BECAUSE, f.scheduledReason ?? "") ?? ""}`;
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
