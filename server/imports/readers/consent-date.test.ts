import { describe, expect, it } from "vitest";

import { parseConsentDate } from "./consent-date";

const refusal = (value: string) => {
  const parsed = parseConsentDate(value);
  return parsed !== null && !(parsed instanceof Date) ? parsed.error : null;
};

const iso = (value: string) => {
  const parsed = parseConsentDate(value);
  return parsed instanceof Date ? parsed.toISOString() : parsed;
};

describe("consent dates of a newsletter list", () => {
  it("reads ISO 8601 and the exports' date-times, as UTC unless a zone is named", () => {
    expect(iso("2024-03-05")).toBe("2024-03-05T00:00:00.000Z");
    expect(iso("2024-03-05T10:20:30Z")).toBe("2024-03-05T10:20:30.000Z");
    expect(iso("2024-03-05 10:20:30")).toBe("2024-03-05T10:20:30.000Z");
    expect(iso("2024-03-05T10:20:30+01:00")).toBe("2024-03-05T09:20:30.000Z");
    expect(iso("2024-03-05T10:20:30.5Z")).toBe("2024-03-05T10:20:30.500Z");
    expect(iso("2024/03/05 10:20")).toBe("2024-03-05T10:20:00.000Z");
    expect(iso("  ")).toBeNull();
  });

  it("tells day from month by the one above 12, and refuses what could be either", () => {
    expect(iso("25/03/2024")).toBe("2024-03-25T00:00:00.000Z");
    expect(iso("03/25/2024")).toBe("2024-03-25T00:00:00.000Z");
    expect(iso("25.03.2024 08:00")).toBe("2024-03-25T08:00:00.000Z");
    expect(iso("05/05/2024")).toBe("2024-05-05T00:00:00.000Z");
    expect(refusal("05/03/2024")).toMatch(/day\/month or month\/day/);
    expect(refusal("25/13/2024")).toMatch(/is not a date/);
  });

  it("reads month names and RFC 2822", () => {
    expect(iso("5 Mar 2024")).toBe("2024-03-05T00:00:00.000Z");
    expect(iso("5 March 2024")).toBe("2024-03-05T00:00:00.000Z");
    expect(iso("March 5, 2024")).toBe("2024-03-05T00:00:00.000Z");
    expect(iso("Tue, 05 Mar 2024 10:00:00 +0100")).toBe("2024-03-05T09:00:00.000Z");
  });

  it("refuses what is not a date", () => {
    for (const text of ["yesterday", "2024-02-30", "31/02/2024", "5 Foo 2024", "2024-03-05T25:00:00Z", "12345"]) {
      expect(refusal(text), text).toMatch(/is not a date/);
    }
  });
});
