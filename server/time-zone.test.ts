import { describe, expect, it } from "vitest";

import { nextDay, zonedDay, zonedDayStart, zonedHour } from "./time-zone";

describe("zonedDayStart", () => {
  it("is the instant a day starts on the zone's clocks, across clock changes", () => {
    expect(zonedDayStart("2026-11-22", "UTC").toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(zonedDayStart("2026-11-22", "Europe/Madrid").toISOString()).toBe("2026-11-21T23:00:00.000Z");
    expect(zonedDayStart("2026-07-01", "Europe/Madrid").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(zonedDayStart("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(zonedDayStart("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(zonedDayStart("2026-11-22", "Asia/Kolkata").toISOString()).toBe("2026-11-21T18:30:00.000Z");
  });

  it("moves on by calendar days, months and years", () => {
    expect(nextDay("2026-11-22")).toBe("2026-11-23");
    expect(nextDay("2026-02-28")).toBe("2026-03-01");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});

describe("zonedDay and zonedHour", () => {
  it("give the day an instant falls on, and an hour of a day, on the zone's clocks", () => {
    expect(zonedDay(new Date("2026-11-22T23:30:00Z"), "UTC")).toBe("2026-11-22");
    expect(zonedDay(new Date("2026-11-22T23:30:00Z"), "Europe/Madrid")).toBe("2026-11-23");
    expect(zonedDay(new Date("2026-11-22T03:00:00Z"), "America/Los_Angeles")).toBe("2026-11-21");
    expect(zonedHour("2026-11-22", 7, "UTC").toISOString()).toBe("2026-11-22T07:00:00.000Z");
    expect(zonedHour("2026-11-22", 7, "Europe/Madrid").toISOString()).toBe("2026-11-22T06:00:00.000Z");
    expect(zonedHour("2026-07-01", 7, "Europe/Madrid").toISOString()).toBe("2026-07-01T05:00:00.000Z");
    expect(zonedHour("2026-11-22", 7, "Asia/Kolkata").toISOString()).toBe("2026-11-22T01:30:00.000Z");
    // The days clocks change: 07:00 is after the change.
    expect(zonedHour("2026-03-08", 7, "America/New_York").toISOString()).toBe("2026-03-08T11:00:00.000Z");
    expect(zonedHour("2026-11-01", 7, "America/New_York").toISOString()).toBe("2026-11-01T12:00:00.000Z");
    expect(zonedHour("2026-03-29", 7, "Europe/Madrid").toISOString()).toBe("2026-03-29T05:00:00.000Z");
  });
});

describe("days at the ends of the calendar", () => {
  it("keeps years 0 to 99 as those years and writes the day after 9999-12-31", () => {
    expect(nextDay("0099-12-31")).toBe("0100-01-01");
    expect(nextDay("0005-02-28")).toBe("0005-03-01");
    expect(nextDay("9999-12-31")).toBe("10000-01-01");
    expect(zonedDayStart("0050-06-01", "UTC").toISOString()).toBe("0050-06-01T00:00:00.000Z");
    expect(zonedDayStart("2999-12-31", "Pacific/Kiritimati").toISOString()).toBe("2999-12-30T10:00:00.000Z");
  });
});
