/**
 * Times as people read them, and calendar days on a zone's clocks. Pure (no IO), so forms,
 * server pages, e-mails and documents share one format: "22 Nov 2026, 12:00 CET", always with the
 * zone. Staff see the account's zone (`accounts.time_zone`), readers their browser's; a document
 * made on the server for a reader (an invoice, an AMP page) uses the account's and names it.
 *
 * Days are "YYYY-MM-DD" on a zone's clocks: a date field's day starts at that zone's midnight and
 * ends at its last millisecond before the next midnight (23 or 25 hours long on a clock change).
 */
import { z } from "zod";

import { dateLocale, formatDateTime } from "@/i18n/format";
import type { Locale } from "@/i18n/locales";

import { nextDay, offsetMs, utcDayText, utcMs, zonedDayStart } from "./time-zone";

export { nextDay, zonedDayStart };

/**
 * The days a filter, range or date field takes: 1 Jan 1900 to 31 Dec 2999. Every day and instant the
 * edge accepts lies inside, so zone conversions, the day after the last one and the database's
 * comparisons never leave what JavaScript's Date, Intl and PostgreSQL can all represent.
 */
export const FIRST_DAY = "1900-01-01";
export const LAST_DAY = "2999-12-31";
const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00Z`);
const LAST_MS = Date.parse(`${LAST_DAY}T23:59:59.999Z`);

/** Whether "YYYY-MM-DD" names a day that exists (no 2027-02-30). */
function isCalendarDay(day: string): boolean {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const at = new Date(utcMs(year, month - 1, date));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date;
}

/** A calendar day "YYYY-MM-DD" (on the account's clocks where it filters), from FIRST_DAY to LAST_DAY. */
export const zCalendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a day as YYYY-MM-DD", abort: true })
  .refine(isCalendarDay, { message: "is not a day of the calendar", abort: true })
  .refine((day) => day >= FIRST_DAY && day <= LAST_DAY, `must be a day from ${FIRST_DAY} to ${LAST_DAY}`);

/** An instant from the start of FIRST_DAY to the end of LAST_DAY (UTC), from a Date or an ISO text. */
export const zBoundedInstant = z.coerce
  .date({ message: "must be a date and time (ISO 8601)" })
  .refine((at) => at.getTime() >= FIRST_MS && at.getTime() <= LAST_MS, {
    message: `must be between ${FIRST_DAY} and ${LAST_DAY}`,
  });

const DAY_MS = 86_400_000;

/** `from` and `to`, days both included, `to` not before `from`, at most `maxDays` days. */
export function zDayRange(maxDays: number) {
  return z
    .object({ from: zCalendarDay, to: zCalendarDay })
    .refine((r) => r.from <= r.to, { message: "must not be before from", path: ["to"] })
    .refine((r) => (Date.parse(`${r.to}T00:00:00Z`) - Date.parse(`${r.from}T00:00:00Z`)) / DAY_MS + 1 <= maxDays, {
      message: `covers at most ${maxDays} days`,
      path: ["to"],
    });
}

const DAYS = new Map<string, Intl.DateTimeFormat>();

/** The Intl locale of a dashboard format: the account's default locale, English as en-GB (i18n/format.ts). */
const intlLocale = (locale: Locale | undefined) => dateLocale(locale ?? "en");

/**
 * "22 Nov 2026, 12:00 CET": `value` in `zone` (undefined: the runtime's own), in `locale`'s way of
 * writing dates ("22. Nov. 2026, 12:00 MEZ" in de, "22 नव॰ 2026, 12:00 pm IST" in hi); English
 * (and no locale) as the dashboard always writes it, en-GB's order with the 24-hour clock.
 */
export function formatInstant(value: Date, zone?: string, locale?: Locale): string {
  return formatDateTime(value, locale ?? "en", zone);
}

/** The calendar day ("2026-11-22") `instant` falls on, on `zone`'s clocks (undefined: the runtime's). */
export function dayInZone(instant: Date, zone?: string): string {
  const key = zone ?? "";
  let format = DAYS.get(key);
  if (!format) {
    // en-CA writes days as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      ...(zone ? { timeZone: zone } : {}),
    });
    DAYS.set(key, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The last millisecond of the day `day` on `zone`'s clocks ("valid until 30 Nov": through all of it). */
export function zonedDayEnd(day: string, zone: string): Date {
  return new Date(zonedDayStart(nextDay(day), zone).getTime() - 1);
}

/** The day `instant` falls on in `zone`, as the half-open range [start, end) of instants. */
export function zonedDayRange(instant: Date, zone: string): { day: string; start: Date; end: Date } {
  const day = dayInZone(instant, zone);
  return { day, start: zonedDayStart(day, zone), end: zonedDayStart(nextDay(day), zone) };
}

/** The `count` days on `zone`'s clocks ending with `now`'s, oldest first ("YYYY-MM-DD"). */
export function lastZonedDays(now: Date, count: number, zone: string): string[] {
  const days = [dayInZone(now, zone)];
  while (days.length < count) days.unshift(previousDay(days[0]!));
  return days;
}

/** The day before `day` ("2026-03-01" → "2026-02-28"). */
export function previousDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return utcDayText(utcMs(year, month - 1, date - 1));
}

const DAY_WORDS = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day already on the right zone's clocks ("2026-11-22") as words: "22 Nov 2026", or
 * "22 Nov" when `short`, in `locale`'s way ("22. Nov. 2026" in de). Say the zone beside it once
 * (a chart's caption: "days in Europe/Paris").
 */
export function formatDay(day: string, options: { short?: boolean; locale?: Locale } = {}): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const key = `${options.locale ?? ""} ${options.short ? "short" : "long"}`;
  let format = DAY_WORDS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(options.locale), {
      day: "numeric",
      month: "short",
      ...(options.short ? {} : { year: "numeric" }),
      timeZone: "UTC",
    });
    DAY_WORDS.set(key, format);
  }
  return format.format(new Date(utcMs(year, month - 1, date)));
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "YYYY-MM-DDTHH:mm": `instant` on `zone`'s clocks (undefined: the runtime's), as a datetime-local
 * input holds it. Seconds are dropped.
 */
export function toZonedInput(instant: Date, zone?: string): string {
  if (!zone) {
    const d = instant;
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  const local = new Date(instant.getTime() + offsetMs(instant.getTime(), zone));
  return local.toISOString().slice(0, 16);
}

/**
 * The instant a datetime-local value ("2026-11-22T09:30") names on `zone`'s clocks (undefined:
 * the runtime's); null when it is not one. A time a clock change repeats reads as the first of the
 * two; a time it skips (02:30 when 02:00 becomes 03:00) reads as that much later (03:30).
 */
export function fromZonedInput(value: string, zone?: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, date, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const local = utcMs(year, month - 1, date, hour, minute);
  const check = new Date(local);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date || hour > 23 || minute > 59) return null;
  if (!zone) return new Date(year, month - 1, date, hour, minute);
  const first = local - offsetMs(local, zone);
  const candidates = [local - offsetMs(first, zone), first];
  const exact = candidates.filter((t) => t + offsetMs(t, zone) === local);
  return new Date(exact.length ? Math.min(...exact) : Math.max(...candidates));
}

const MONTH_WORDS = new Map<string, Intl.DateTimeFormat>();

/** A calendar month ("2026-11") as words: "Nov 2026" ("nov. 2026" in fr). */
export function formatMonth(month: string, locale?: Locale): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  let format = MONTH_WORDS.get(locale ?? "");
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { month: "short", year: "numeric", timeZone: "UTC" });
    MONTH_WORDS.set(locale ?? "", format);
  }
  return format.format(new Date(utcMs(year, number - 1, 1)));
}
