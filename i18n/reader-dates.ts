/**
 * A moment as a reader reads it in a sentence, in their locale and a time zone, with the zone named:
 * "22 Nov 2026, 16:30 IST" (English keeps Masthead's one order, en-GB's, as server/dates.schema.ts
 * formatInstant writes it), "22 नव॰ 2026, 04:30 pm IST", "22 nov. 2026, 16:30 UTC+5:30". Pure; the
 * paywall's pages and the AMP page use it.
 */
import { type Locale } from "./locales";

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** `value` in `locale`, on `zone`'s clocks (undefined: the runtime's own). */
export function formatReaderInstant(value: Date, locale: Locale, zone?: string): string {
  const id = `${locale} ${zone ?? ""}`;
  let format = FORMATS.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
      ...(zone ? { timeZone: zone } : {}),
    });
    FORMATS.set(id, format);
  }
  return format.format(value);
}
