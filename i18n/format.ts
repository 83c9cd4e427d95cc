/**
 * Money and times in a reader's locale, by `Intl` alone (docs/i18n.md): no catalogue, so a browser
 * bundle (the member pages' client components) takes it without the messages of every surface.
 * English writes dates as the rest of Masthead does ("29 Nov 2026, 10:30 IST", en-GB's order).
 */
import { type Locale } from "./locales";

/** The `Intl` locale a reader locale formats dates with: English as Masthead writes it everywhere. */
export const dateLocale = (locale: Locale): string => (locale === "en" ? "en-GB" : locale);

/** Money in integer cents, in the reader's locale ("₹1,499.00", "1.499,00 €", "US$ 14,99"). */
export function formatMoney(cents: number, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(cents / 10 ** digits);
}

const DATE_TIMES = new Map<string, Intl.DateTimeFormat>();

/**
 * A date and time in the reader's locale and `timeZone` (undefined: the runtime's own), the zone
 * named: "29 Nov 2026, 10:30 IST", "29 नव॰ 2026, 10:30 am IST", "29. Nov. 2026, 10:30 MEZ".
 */
export function formatDateTime(when: Date, locale: Locale, timeZone?: string): string {
  const id = `${locale}\u0000${timeZone ?? ""}`;
  let format = DATE_TIMES.get(id);
  if (!format) {
    // dateStyle cannot be combined with timeZoneName: the parts are named one by one.
    format = new Intl.DateTimeFormat(dateLocale(locale), {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
      ...(timeZone ? { timeZone } : {}),
    });
    DATE_TIMES.set(id, format);
  }
  return format.format(when);
}

/** A calendar date in the reader's locale ("29 November 2026"), in the given time zone. */
export function formatDate(when: Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(dateLocale(locale), { dateStyle: "long", timeZone }).format(when);
}
