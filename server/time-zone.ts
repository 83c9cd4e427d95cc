/**
 * Calendar days on a zone's clocks, for filters that take days ("from 2026-11-01 to 2026-11-22")
 * in the account's time zone. Pure.
 */

const PARTS = new Map<string, Intl.DateTimeFormat>();

/**
 * Date.UTC without its one surprise: years 0 to 99 are those years, not 1900 to 1999. Months and
 * days past their ends roll over as in Date.UTC.
 */
export function utcMs(year: number, month: number, date: number, hour = 0, minute = 0, second = 0): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month, date);
  return at.setUTCHours(hour, minute, second, 0);
}

/** The UTC calendar day ("2026-11-22") of an instant in ms, the year always four digits (or more). */
export function utcDayText(ms: number): string {
  const at = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
}

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = PARTS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    PARTS.set(zone, format);
  }
  return format;
}

/** How far the zone's clocks are ahead of UTC at `instant` (ms; negative west of Greenwich). */
export function offsetMs(instant: number, zone: string): number {
  const parts = partsFormat(zone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = utcMs(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return local - Math.floor(instant / 1000) * 1000;
}

/** The instant the calendar day `day` ("2026-11-22") starts on `zone`'s clocks. */
export function zonedDayStart(day: string, zone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const midnight = utcMs(year, month - 1, date);
  // The offset at a first guess, then at the corrected instant (a clock change near midnight).
  const first = midnight - offsetMs(midnight, zone);
  return new Date(midnight - offsetMs(first, zone));
}

/** The day after `day` ("2026-11-22" → "2026-11-23"). */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return utcDayText(utcMs(year, month - 1, date + 1));
}

/** The calendar day ("2026-11-22") `instant` falls on, on `zone`'s clocks. */
export function zonedDay(instant: Date, zone: string): string {
  return utcDayText(instant.getTime() + offsetMs(instant.getTime(), zone));
}

/** The instant `zone`'s clocks show `hour`:00 on `day` (an hour a clock change skips: an hour beside it). */
export function zonedHour(day: string, hour: number, zone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wall = utcMs(year, month - 1, date, hour);
  const first = wall - offsetMs(wall, zone);
  return new Date(wall - offsetMs(first, zone));
}
