import { describe, expect, it } from "vitest";

import {
  dayInZone,
  formatDay,
  formatInstant,
  formatMonth,
  fromZonedInput,
  lastZonedDays,
  previousDay,
  toZonedInput,
  zonedDayEnd,
  zonedDayRange,
} from "./dates.schema";

describe("formatInstant", () => {
  it("writes one format with the zone named, east and west of UTC", () => {
    const at = new Date("2026-11-22T11:00:00Z");
    expect(formatInstant(at, "UTC")).toBe("22 Nov 2026, 11:00 UTC");
    expect(formatInstant(at, "Europe/Paris")).toBe("22 Nov 2026, 12:00 CET");
    expect(formatInstant(new Date("2026-11-26T23:30:00Z"), "Asia/Tokyo")).toBe("27 Nov 2026, 08:30 GMT+9");
    expect(formatInstant(at, "America/Los_Angeles")).toBe("22 Nov 2026, 03:00 GMT-8");
  });

  it("names the summer zone in summer", () => {
    expect(formatInstant(new Date("2026-07-01T10:00:00Z"), "Europe/London")).toBe("1 Jul 2026, 11:00 BST");
  });
});

describe("dates in the account's locale", () => {
  it("keeps English as the dashboard writes it and follows another locale's way, zone named", () => {
    const at = new Date("2026-11-22T11:00:00Z");
    expect(formatInstant(at, "Europe/Paris", "en")).toBe("22 Nov 2026, 12:00 CET");
    expect(formatInstant(at, "Europe/Berlin", "de")).toBe("22. Nov. 2026, 12:00 MEZ");
    expect(formatInstant(at, "Asia/Kolkata", "hi")).toBe("22 नव॰ 2026, 04:30 pm IST");
    expect(formatInstant(at, "America/Sao_Paulo", "pt-BR")).toBe("22 de nov. de 2026, 08:00 BRT");
    expect(formatInstant(at, "Asia/Riyadh", "ar")).toMatch(/نوفمبر/);
    expect(formatDay("2026-11-02", { locale: "fr" })).toBe("2 nov. 2026");
    expect(formatDay("2027-01-01", { short: true, locale: "es" })).toBe("1 ene");
    expect(formatDay("2027-01-01", { short: true, locale: "en" })).toBe("1 Jan");
    expect(formatMonth("2026-11", "fr")).toBe("nov. 2026");
    expect(formatMonth("2026-09", "en")).toBe("Sept 2026");
  });
});

describe("dayInZone", () => {
  it("is the day on the zone's clocks, which the UTC day is not everywhere", () => {
    const lateUtc = new Date("2026-11-26T23:30:00Z");
    expect(dayInZone(lateUtc, "UTC")).toBe("2026-11-26");
    expect(dayInZone(lateUtc, "Asia/Tokyo")).toBe("2026-11-27");
    expect(dayInZone(new Date("2026-11-27T02:00:00Z"), "America/New_York")).toBe("2026-11-26");
    expect(dayInZone(new Date("2026-12-31T23:59:59.999Z"), "Pacific/Kiritimati")).toBe("2027-01-01");
  });

  it("puts the last minute of a day on that day and the next minute on the next", () => {
    expect(dayInZone(new Date("2026-11-22T22:59:59.999Z"), "Europe/Madrid")).toBe("2026-11-22");
    expect(dayInZone(new Date("2026-11-22T23:00:00.000Z"), "Europe/Madrid")).toBe("2026-11-23");
  });
});

describe("zonedDayEnd", () => {
  it("is the last millisecond of the day on the zone's clocks", () => {
    expect(zonedDayEnd("2026-11-30", "UTC").toISOString()).toBe("2026-11-30T23:59:59.999Z");
    expect(zonedDayEnd("2026-11-30", "Europe/Paris").toISOString()).toBe("2026-11-30T22:59:59.999Z");
    expect(zonedDayEnd("2026-11-30", "Asia/Tokyo").toISOString()).toBe("2026-11-30T14:59:59.999Z");
    expect(zonedDayEnd("2026-11-30", "America/Los_Angeles").toISOString()).toBe("2026-12-01T07:59:59.999Z");
  });

  it("ends a clock-change day after 23 or 25 hours", () => {
    // Europe/Paris: 29 Mar 2026 has 23 hours, 25 Oct 2026 has 25.
    const spring = zonedDayRange(new Date("2026-03-29T12:00:00Z"), "Europe/Paris");
    expect(spring.start.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3_600_000);
    expect(zonedDayEnd("2026-03-29", "Europe/Paris").toISOString()).toBe("2026-03-29T21:59:59.999Z");
    const autumn = zonedDayRange(new Date("2026-10-25T12:00:00Z"), "Europe/Paris");
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3_600_000);
    // America/New_York springs forward at 02:00 on 8 Mar 2026.
    expect(zonedDayEnd("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-09T03:59:59.999Z");
  });
});

describe("zonedDayRange", () => {
  it("is the day containing the instant, half open", () => {
    const range = zonedDayRange(new Date("2026-11-26T23:30:00Z"), "Asia/Tokyo");
    expect(range).toEqual({
      day: "2026-11-27",
      start: new Date("2026-11-26T15:00:00Z"),
      end: new Date("2026-11-27T15:00:00Z"),
    });
    expect(zonedDayRange(range.end, "Asia/Tokyo").day).toBe("2026-11-28");
    expect(zonedDayRange(new Date(range.end.getTime() - 1), "Asia/Tokyo").day).toBe("2026-11-27");
  });
});

describe("lastZonedDays", () => {
  it("ends with the zone's today, across a month and a year", () => {
    expect(lastZonedDays(new Date("2026-12-31T20:00:00Z"), 3, "Asia/Tokyo")).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
    ]);
    expect(lastZonedDays(new Date("2026-03-01T03:00:00Z"), 2, "America/Los_Angeles")).toEqual([
      "2026-02-27",
      "2026-02-28",
    ]);
    expect(previousDay("2028-03-01")).toBe("2028-02-29");
  });
});

describe("formatDay", () => {
  it("writes a zone's day as words, whatever the runtime's zone", () => {
    expect(formatDay("2026-11-02")).toBe("2 Nov 2026");
    expect(formatDay("2027-01-01", { short: true })).toBe("1 Jan");
    expect(formatMonth("2026-11")).toBe("Nov 2026");
  });
});

describe("datetime-local values on a zone's clocks", () => {
  it("writes and reads the wall time east and west of UTC", () => {
    const at = new Date("2026-11-26T23:30:00Z");
    expect(toZonedInput(at, "Asia/Tokyo")).toBe("2026-11-27T08:30");
    expect(toZonedInput(at, "America/Los_Angeles")).toBe("2026-11-26T15:30");
    expect(toZonedInput(at, "UTC")).toBe("2026-11-26T23:30");
    expect(fromZonedInput("2026-11-27T08:30", "Asia/Tokyo")).toEqual(at);
    expect(fromZonedInput("2026-11-26T15:30", "America/Los_Angeles")).toEqual(at);
    expect(fromZonedInput("2026-11-22T23:59", "Europe/Madrid")).toEqual(new Date("2026-11-22T22:59:00Z"));
  });

  it("reads a repeated time as the first, a skipped time as that much later", () => {
    // New York: 1 Nov 2026 01:30 happens twice (EDT, then EST); 8 Mar 2026 02:30 never happens.
    expect(fromZonedInput("2026-11-01T01:30", "America/New_York")).toEqual(new Date("2026-11-01T05:30:00Z"));
    expect(fromZonedInput("2026-03-08T02:30", "America/New_York")).toEqual(new Date("2026-03-08T07:30:00Z"));
    expect(toZonedInput(new Date("2026-03-08T07:30:00Z"), "America/New_York")).toBe("2026-03-08T03:30");
    expect(fromZonedInput("2026-03-29T02:30", "Europe/Paris")).toEqual(new Date("2026-03-29T01:30:00Z"));
  });

  it("refuses what is not a wall time", () => {
    for (const bad of ["", "2026-11-31T10:00", "2026-11-30T24:00", "2026-11-30 10:00", "2026-11-30T10:00:00"])
      expect(fromZonedInput(bad, "UTC"), bad).toBeNull();
  });
});
