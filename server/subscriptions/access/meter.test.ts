import { describe, expect, it } from "vitest";

import { meterPeriodStart, meterReaderKey } from "./meter";

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe("meter periods (calendar, UTC)", () => {
  it("starts days at midnight, weeks on Monday, months on the 1st, years on 1 January", () => {
    expect(iso(meterPeriodStart(at("2026-11-23T23:59:59Z"), 1, "DAYS"))).toBe("2026-11-23T00:00:00.000Z");
    // 2026-11-23 is a Monday; the Sunday before belongs to the week of the 16th.
    expect(iso(meterPeriodStart(at("2026-11-23T00:00:00Z"), 1, "WEEKS"))).toBe("2026-11-23T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-11-22T23:59:59Z"), 1, "WEEKS"))).toBe("2026-11-16T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-02-28T12:00:00Z"), 1, "MONTHS"))).toBe("2026-02-01T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-12-31T23:59:59Z"), 1, "YEARS"))).toBe("2026-01-01T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-01-01T00:00:00Z"), 1, "YEARS"))).toBe("2026-01-01T00:00:00.000Z");
  });

  it("groups whole periods counted from 1970 when the length is above 1", () => {
    expect(iso(meterPeriodStart(at("2026-04-15T00:00:00Z"), 3, "MONTHS"))).toBe("2026-04-01T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-06-30T00:00:00Z"), 3, "MONTHS"))).toBe("2026-04-01T00:00:00.000Z");
    expect(iso(meterPeriodStart(at("2026-07-01T00:00:00Z"), 3, "MONTHS"))).toBe("2026-07-01T00:00:00.000Z");
    const a = meterPeriodStart(at("2026-11-23T10:00:00Z"), 2, "WEEKS");
    expect(a.getUTCDay()).toBe(1);
    const span = meterPeriodStart(at(new Date(a.getTime() + 14 * 86_400_000 - 1).toISOString()), 2, "WEEKS");
    expect(iso(span)).toBe(iso(a));
    expect(iso(meterPeriodStart(at("2026-11-23T10:00:00Z"), 7, "DAYS")).slice(11)).toBe("00:00:00.000Z");
  });
});

describe("reader keys", () => {
  it("meters logged-in readers by member and others by reader id", () => {
    expect(meterReaderKey({ memberId: 7, loggedIn: true, readerId: "abc" })).toBe("m:7");
    expect(meterReaderKey({ memberId: null, loggedIn: true, readerId: "abc" })).toBeNull();
    expect(meterReaderKey({ memberId: null, loggedIn: false, readerId: "abc" })).toBe("r:abc");
    expect(meterReaderKey({ memberId: null, loggedIn: false, readerId: null })).toBeNull();
  });
});
