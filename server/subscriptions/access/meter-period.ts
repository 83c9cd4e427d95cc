/**
 * The meter's pure rules (no IO, usable by seeds and scripts): calendar periods in UTC and whose
 * meter a read counts on. See ./meter.ts.
 */
import type { DurationUnit } from "../../generated/prisma/enums";

const DAY_MS = 86_400_000;
/** 1970-01-05, a Monday: weeks start on Mondays (ISO 8601). */
const FIRST_MONDAY_DAY = 4;

/**
 * The start of the calendar period holding `now`, in UTC. Days start at midnight, weeks on
 * Monday, months on the 1st, years on 1 January; a length above 1 groups whole periods counted
 * from 1970 (2 months: January–February, March–April, …). Lifetime: one period, forever.
 */
export function meterPeriodStart(now: Date, length: number, unit: DurationUnit): Date {
  const n = Math.max(1, Math.floor(length));
  const day = Math.floor(now.getTime() / DAY_MS);
  switch (unit) {
    case "DAYS":
      return new Date(Math.floor(day / n) * n * DAY_MS);
    case "WEEKS": {
      const week = Math.floor((day - FIRST_MONDAY_DAY) / 7);
      return new Date((FIRST_MONDAY_DAY + Math.floor(week / n) * n * 7) * DAY_MS);
    }
    case "MONTHS":
    case "YEARS": {
      const months = unit === "MONTHS" ? n : n * 12;
      const index = (now.getUTCFullYear() - 1970) * 12 + now.getUTCMonth();
      const start = Math.floor(index / months) * months;
      return new Date(Date.UTC(1970 + Math.floor(start / 12), start % 12, 1));
    }
    case "LIFETIME":
      return new Date(0);
  }
}

/**
 * Whose meter a read counts on: a logged-in reader's member ("m:<id>", one meter on every device
 * and on AMP), otherwise the anonymous reader id the page sends ("r:<readerId>"). A logged-in
 * reader never seen before has no member yet (null: nothing counted so far).
 */
export function meterReaderKey(reader: { memberId: number | null; loggedIn: boolean; readerId: string | null }) {
  if (reader.loggedIn) return reader.memberId === null ? null : `m:${reader.memberId}`;
  return reader.readerId ? `r:${reader.readerId}` : null;
}

/**
 * The registration meter's key of an anonymous reader ("w:<readerId>"): the stories it read free
 * before the registration wall, apart from the paid meter's "r:<readerId>" (./access-rule.ts).
 * Null without a reader id (nothing to count on).
 */
export function registrationMeterKey(readerId: string | null): string | null {
  return readerId ? `w:${readerId}` : null;
}
