/**
 * Calendar days on a zone's clocks, for filters that take days ("from 2026-11-01 to 2026-11-22")
 * in the account's time zone. Pure.
 */

const PARTS = new Map<string, Intl.DateTimeFormat>();

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
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return local - Math.floor(instant / 1000) * 1000;
}

/** The instant the calendar day `day` ("2026-11-22") starts on `zone`'s clocks. */
export function zonedDayStart(day: string, zone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const midnight = Date.UTC(year, month - 1, date);
  // The offset at a first guess, then at the corrected instant (a clock change near midnight).
  const first = midnight - offsetMs(midnight, zone);
  return new Date(midnight - offsetMs(first, zone));
}

/** The day after `day` ("2026-11-22" → "2026-11-23"). */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The calendar day ("2026-11-22") `instant` falls on, on `zone`'s clocks. */
export function zonedDay(instant: Date, zone: string): string {
  return new Date(instant.getTime() + offsetMs(instant.getTime(), zone)).toISOString().slice(0, 10);
}

/** The instant `zone`'s clocks show `hour`:00 on `day` (an hour a clock change skips: an hour beside it). */
export function zonedHour(day: string, hour: number, zone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date, hour);
  const first = wall - offsetMs(wall, zone);
  return new Date(wall - offsetMs(first, zone));
}
