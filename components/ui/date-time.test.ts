import { describe, expect, it } from "vitest";

import { formatDateTime } from "./date-time";

describe("formatDateTime", () => {
  it("writes every time one way, in the zone it is given, with the zone", () => {
    const noon = new Date("2026-11-22T11:00:00Z");
    expect(formatDateTime(noon, "Europe/Madrid")).toBe("22 Nov 2026, 12:00 CET");
    expect(formatDateTime(noon, "UTC")).toBe("22 Nov 2026, 11:00 UTC");
    expect(formatDateTime(new Date("2026-07-01T23:30:00Z"), "America/New_York")).toBe("1 Jul 2026, 19:30 GMT-4");
  });
});
