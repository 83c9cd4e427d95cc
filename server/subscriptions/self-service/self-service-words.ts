/**
 * What the self-service page says, in words, from figures the server computed: the preview of a
 * plan switch ("You pay $4.17 now …"), a retention offer, money and times. Pure (no I/O), so the
 * page shows exactly what the signed preview holds and the unit tests pin the sentences.
 *
 * The sentences are the `member` catalogue's (i18n/messages/member, docs/i18n.md), in the reader's
 * locale (`ReaderWords`: the page's locale and the account's overrides); English when none is given.
 * A plan's name is set apart from the sentence around it when directions mix (`isolated`).
 *
 * Times are the instants the server honours (a switch's `applies_at`, the next charge), written in
 * the one format with the zone named ("1 Dec 2026, 01:00 CET"): the reader's when the page sends it,
 * else the account's (docs/dashboard.md "Dates and times").
 */
import { formatDateTime } from "@/i18n/format";
import { directionOf, type Locale } from "@/i18n/locales";
import { type MessageKey } from "@/i18n/messages";
import { translator, type Translate } from "@/i18n/translate";

import { minorUnits } from "../money.schema";

/** The reader's locale and its member-page messages (with the account's overrides). */
export type ReaderWords = { locale: Locale; t: Translate<"member"> };

let english: ReaderWords | undefined;
/** The catalogue's English, for callers that name no reader. */
export function englishWords(): ReaderWords {
  return (english ??= { locale: "en", t: translator("member", "en") });
}

/** 417 USD → "$4.17"; 1000 JPY → "¥1,000"; in Hindi 149900 INR → "₹1,499.00". */
export function moneyInWords(cents: number, currency: string, locale: Locale = "en"): string {
  const digits = minorUnits(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(cents / 10 ** digits);
  } catch {
    return `${(cents / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** An instant in `zone`, the zone named: "1 Dec 2026, 01:00 CET" (in English). */
export function timeInWords(at: Date | string, zone: string, locale: Locale = "en"): string {
  return formatDateTime(new Date(at), locale, zone);
}

const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/**
 * A name (a plan's, chosen by the publisher) inside a sentence, isolated (FSI … PDI) where its
 * direction may differ from the sentence's: in a right-to-left locale, or a name with right-to-left
 * letters. A left-to-right name in a left-to-right sentence is left as it is.
 */
export function isolated(name: string, locale: Locale): string {
  return directionOf(locale) === "rtl" || STRONG_RTL.test(name) ? `\u2068${name}\u2069` : name;
}

/** A plan's period: "1 month", "3 months", "lifetime"; with `per`, as a price says it: "per month", "for life". */
export function periodWords(length: number, unit: string, words: ReaderWords, options: { per?: boolean } = {}) {
  return words.t(options.per ? "period.per" : "period.span", { n: length, unit: unit.toLowerCase() });
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
  /** A recurring switch that waits: why (../recurring/plan-switch-terms.ts ScheduledReason). */
  scheduledReason?: string;
};

const WAITS_BECAUSE: ReadonlyMap<string, MessageKey<"member">> = new Map([
  ["gateway_charges", "words.because.gateway_charges"],
  ["gateway_credit", "words.because.gateway_credit"],
  ["not_charged", "words.because.not_charged"],
  ["trial", "words.because.trial"],
] as const);

/** A recurring switch applied now, prorated: what is paid or credited now, and the next charge. */
function recurringNowInWords(f: SwitchFigures, w: ReaderWords): string {
  const m = (c: number) => moneyInWords(c, f.currency, w.locale);
  const plan = isolated(f.planName, w.locale);
  const restMoney = m(f.restCents ?? f.priceCents);
  const rest = f.resetsCycle
    ? w.t("words.restCycle", { rest: restMoney, span: periodWords(f.durationLength, f.durationUnit, w), plan })
    : w.t("words.restPeriod", { rest: restMoney, plan });
  const starts =
    f.nextChargeAt && f.nextChargeCents !== undefined
      ? w.t("words.startsNext", {
          plan,
          next: m(f.nextChargeCents),
          date: timeInWords(f.nextChargeAt, f.timeZone, w.locale),
        })
      : w.t("words.starts", { plan });
  if (f.chargeCents && f.chargeCents > 0) {
    return f.creditCents > 0
      ? w.t("words.payNowLess", { charge: m(f.chargeCents), rest, credit: m(f.creditCents), starts })
      : w.t("words.payNow", { charge: m(f.chargeCents), rest, starts });
  }
  if (f.carryCents && f.carryCents > 0)
    return w.t("words.carry", { carry: m(f.carryCents), credit: m(f.creditCents), rest, starts });
  return w.t("words.nothingNow", { starts });
}

/** The preview of a switch as the reader reads it before confirming. */
export function switchInWords(f: SwitchFigures, w: ReaderWords = englishWords()): string {
  const m = (c: number) => moneyInWords(c, f.currency, w.locale);
  const plan = isolated(f.planName, w.locale);
  const span = periodWords(f.durationLength, f.durationUnit, w);
  const date = timeInWords(f.appliesAt, f.timeZone, w.locale);
  const charged = f.chargeCents !== null && f.chargeCents > 0;
  if (f.recurring && f.applies === "now") return recurringNowInWords(f, w);
  if (f.recurring) {
    const per = periodWords(f.durationLength, f.durationUnit, w, { per: true });
    const waits = w.t("words.waits", { date, price: m(f.priceCents), per, plan });
    const because = WAITS_BECAUSE.get(f.scheduledReason ?? "");
    return because ? `${waits} ${w.t(because)}` : waits;
  }
  if (f.applies === "now") {
    const values = { charge: m(f.chargeCents ?? 0), price: m(f.priceCents), credit: m(f.creditCents), plan, span };
    if (f.creditCents > 0) return w.t(charged ? "words.onceNowPayLess" : "words.onceNowFreeLess", values);
    return w.t(charged ? "words.onceNowPay" : "words.onceNowFree", values);
  }
  return w.t(charged ? "words.onceLaterPay" : "words.onceLaterFree", {
    charge: m(f.chargeCents ?? 0),
    plan,
    date,
    span,
  });
}

/** A retention offer as the reader reads it on the cancel form. */
export function offerInWords(
  offer:
    | { kind: "coupon"; periods: number; percentOff: number | null; amountOffCents: number | null; currency: string }
    | { kind: "pause"; periods: number; durationLength: number; durationUnit: string },
  w: ReaderWords = englishWords(),
): string {
  if (offer.kind === "pause")
    return w.t("words.offerPause", { span: periodWords(offer.periods * offer.durationLength, offer.durationUnit, w) });
  const off =
    offer.percentOff !== null
      ? new Intl.NumberFormat(w.locale, { style: "percent", maximumFractionDigits: 2 }).format(offer.percentOff / 100)
      : moneyInWords(offer.amountOffCents ?? 0, offer.currency, w.locale);
  return w.t("words.offerCoupon", { off, n: offer.periods });
}
