import { describe, expect, it } from "vitest";

import { nextDay, zonedDayStart } from "./time-zone";

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
