/** Shifts, surges and the queue-age alert as pure rules (surge-rules.ts). */
import { describe, expect, it } from "vitest";

import { OPEN_PAGE } from "../rules/rules";
import {
  alertStep,
  durationInWords,
  isOnShift,
  isQueueSurging,
  offShiftStep,
  queueSurgeStep,
  strictestRules,
  wallClock,
} from "./surge-rules";
import { SURGE_DEFAULTS, ZShift, ZSurgeSettings, ZUpdateSurgeSettingsInput } from "./surge-settings.schema";

const at = (iso: string) => new Date(iso);
const thresholds = { surgePendingMin: 5, surgeArrivalRatio: 2, surgeWindowMinutes: 10, surgeCalmMinutes: 10 };

describe("shift windows", () => {
  const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, from: "09:00", to: "17:00" }));

  it("no shifts: always staffed", () => {
    expect(isOnShift({ shifts: [], timeZone: "UTC", now: at("2026-11-29T03:00:00Z") })).toBe(true);
  });

  it("reads the wall clock of the account's zone, not the server's", () => {
    // Thursday 26 Nov 2026, 08:30 UTC is 09:30 in Madrid (UTC+1) and 03:30 in New York (UTC-5).
    const now = at("2026-11-26T08:30:00Z");
    expect(wallClock(now, "Europe/Madrid")).toEqual({ day: 4, minute: 9 * 60 + 30 });
    expect(isOnShift({ shifts: weekdays, timeZone: "Europe/Madrid", now })).toBe(true);
    expect(isOnShift({ shifts: weekdays, timeZone: "America/New_York", now })).toBe(false);
    expect(isOnShift({ shifts: weekdays, timeZone: "UTC", now })).toBe(false);
  });

  it("a zone ahead of UTC is already on the next weekday", () => {
    // Friday 23:30 UTC is Saturday 08:30 in Tokyo: no weekday shift.
    const now = at("2026-11-27T23:30:00Z");
    expect(wallClock(now, "Asia/Tokyo")).toEqual({ day: 6, minute: 8 * 60 + 30 });
    expect(isOnShift({ shifts: [{ day: 6, from: "08:00", to: "12:00" }], timeZone: "Asia/Tokyo", now })).toBe(true);
    expect(isOnShift({ shifts: weekdays, timeZone: "Asia/Tokyo", now })).toBe(false);
  });

  it("the end of a shift is off shift, its start is on", () => {
    const shifts = [{ day: 4, from: "09:00", to: "17:00" }];
    expect(isOnShift({ shifts, timeZone: "UTC", now: at("2026-11-26T09:00:00Z") })).toBe(true);
    expect(isOnShift({ shifts, timeZone: "UTC", now: at("2026-11-26T16:59:00Z") })).toBe(true);
    expect(isOnShift({ shifts, timeZone: "UTC", now: at("2026-11-26T17:00:00Z") })).toBe(false);
    expect(isOnShift({ shifts, timeZone: "UTC", now: at("2026-11-26T08:59:00Z") })).toBe(false);
  });

  it("a shift past midnight goes on into the next day, Sunday's into Monday", () => {
    const night = [{ day: 7, from: "22:00", to: "06:00" }];
    expect(isOnShift({ shifts: night, timeZone: "UTC", now: at("2026-11-29T23:00:00Z") })).toBe(true); // Sunday
    expect(isOnShift({ shifts: night, timeZone: "UTC", now: at("2026-11-30T05:59:00Z") })).toBe(true); // Monday
    expect(isOnShift({ shifts: night, timeZone: "UTC", now: at("2026-11-30T06:00:00Z") })).toBe(false);
    expect(isOnShift({ shifts: night, timeZone: "UTC", now: at("2026-11-29T21:59:00Z") })).toBe(false);
  });

  it("24:00 ends a shift at midnight", () => {
    const late = [{ day: 4, from: "18:00", to: "24:00" }];
    expect(isOnShift({ shifts: late, timeZone: "UTC", now: at("2026-11-26T23:59:00Z") })).toBe(true);
    expect(isOnShift({ shifts: late, timeZone: "UTC", now: at("2026-11-27T00:00:00Z") })).toBe(false);
  });

  it("keeps to the wall clock across daylight saving time changes", () => {
    const shifts = [
      { day: 7, from: "09:00", to: "10:00" },
      { day: 1, from: "09:00", to: "10:00" },
    ];
    // Europe/Madrid leaves summer time on Sunday 25 Oct 2026 (03:00 → 02:00): 09:30 local is
    // 07:30 UTC the day before (a Saturday, no shift), 08:30 UTC on the Sunday, 08:30 UTC on Monday.
    expect(isOnShift({ shifts, timeZone: "Europe/Madrid", now: at("2026-10-25T08:30:00Z") })).toBe(true);
    expect(isOnShift({ shifts, timeZone: "Europe/Madrid", now: at("2026-10-25T07:30:00Z") })).toBe(false);
    expect(isOnShift({ shifts, timeZone: "Europe/Madrid", now: at("2026-10-26T08:30:00Z") })).toBe(true);
    // New York enters summer time on Sunday 8 March 2026: 09:30 EDT is 13:30 UTC, not 14:30.
    expect(isOnShift({ shifts, timeZone: "America/New_York", now: at("2026-03-08T13:30:00Z") })).toBe(true);
    expect(isOnShift({ shifts, timeZone: "America/New_York", now: at("2026-03-08T14:30:00Z") })).toBe(false);
    expect(isOnShift({ shifts, timeZone: "America/New_York", now: at("2026-03-01T14:30:00Z") })).toBe(true);
  });

  it("validates shifts and zones with clear messages", () => {
    expect(ZShift.safeParse({ day: 1, from: "9:00", to: "17:00" }).success).toBe(false);
    expect(ZShift.safeParse({ day: 8, from: "09:00", to: "17:00" }).success).toBe(false);
    expect(ZShift.safeParse({ day: 1, from: "09:00", to: "09:00" }).success).toBe(false);
    expect(ZShift.safeParse({ day: 1, from: "22:00", to: "06:00" }).success).toBe(true);
    expect(ZShift.safeParse({ day: 1, from: "00:00", to: "24:00" }).success).toBe(true);
    const zone = ZUpdateSurgeSettingsInput.safeParse({ timeZone: "Mars/Olympus" });
    expect(zone.success).toBe(false);
    expect(zone.error?.issues[0]?.message).toMatch(/time zone/);
    expect(ZUpdateSurgeSettingsInput.safeParse({ unknown: 1 }).success).toBe(false);
    expect(ZSurgeSettings.safeParse(SURGE_DEFAULTS).success).toBe(true);
  });
});

describe("queue surges", () => {
  it("surges with enough pending comments arriving faster than the decisions", () => {
    expect(isQueueSurging({ pending: 5, arrivals: 6, decisions: 3 }, thresholds)).toBe(true);
    expect(isQueueSurging({ pending: 5, arrivals: 5, decisions: 3 }, thresholds)).toBe(false);
    expect(isQueueSurging({ pending: 4, arrivals: 50, decisions: 0 }, thresholds)).toBe(false);
    expect(isQueueSurging({ pending: 40, arrivals: 0, decisions: 0 }, thresholds)).toBe(false);
    expect(isQueueSurging({ pending: 5, arrivals: 1, decisions: 0 }, thresholds)).toBe(true);
  });

  const now = at("2026-11-26T12:00:00Z");
  const surging = { pending: 8, arrivals: 8, decisions: 0 };
  const cleared = { pending: 2, arrivals: 0, decisions: 6 };

  it("starts, stays while the queue is over the threshold, calms, and ends after the calm lasted", () => {
    expect(queueSurgeStep({ open: null, reading: surging, settings: thresholds, now })).toEqual({ kind: "start" });
    expect(queueSurgeStep({ open: null, reading: cleared, settings: thresholds, now })).toEqual({ kind: "none" });
    // Arrivals slowed but the queue is still long: the surge holds.
    const slowed = { pending: 8, arrivals: 0, decisions: 1 };
    expect(queueSurgeStep({ open: { calmSince: null }, reading: slowed, settings: thresholds, now })).toEqual({
      kind: "none",
    });
    expect(queueSurgeStep({ open: { calmSince: null }, reading: cleared, settings: thresholds, now })).toEqual({
      kind: "calm",
    });
    const calmSince = at("2026-11-26T11:51:00Z");
    expect(queueSurgeStep({ open: { calmSince }, reading: cleared, settings: thresholds, now })).toEqual({
      kind: "none",
    });
    expect(
      queueSurgeStep({ open: { calmSince }, reading: cleared, settings: thresholds, now: at("2026-11-26T12:01:00Z") }),
    ).toEqual({ kind: "end" });
    // Back over the threshold before the calm lasted: it starts over.
    expect(queueSurgeStep({ open: { calmSince }, reading: surging, settings: thresholds, now })).toEqual({
      kind: "unsettle",
    });
  });

  it("off shift: starts when the shift ends, ends when one starts", () => {
    expect(offShiftStep({ open: false, onShift: false })).toEqual({ kind: "start" });
    expect(offShiftStep({ open: true, onShift: false })).toEqual({ kind: "none" });
    expect(offShiftStep({ open: true, onShift: true })).toEqual({ kind: "end" });
    expect(offShiftStep({ open: false, onShift: true })).toEqual({ kind: "none" });
  });

  it("the stricter of the page's rules and its surges applies; a surge never opens a closed page", () => {
    expect(strictestRules(OPEN_PAGE, [])).toEqual(OPEN_PAGE);
    expect(strictestRules(OPEN_PAGE, [{ action: "pre_moderation", slowModeSeconds: 0, reason: "queue" }])).toEqual({
      mode: "pre_moderation",
      slowModeSeconds: 0,
      heldBySurge: "queue",
    });
    // A page its moderators pre-moderate is held by their rule, whatever the surge.
    expect(
      strictestRules({ mode: "pre_moderation", slowModeSeconds: 0 }, [
        { action: "pre_moderation", slowModeSeconds: 0, reason: "off_shift" },
      ]),
    ).toEqual({ mode: "pre_moderation", slowModeSeconds: 0 });
    expect(
      strictestRules({ mode: "closed", slowModeSeconds: 0 }, [{ action: "pre_moderation", slowModeSeconds: 0 }]),
    ).toEqual({ mode: "closed", slowModeSeconds: 0 });
    expect(
      strictestRules({ mode: "open", slowModeSeconds: 300 }, [{ action: "slow_mode", slowModeSeconds: 60 }]),
    ).toEqual({ mode: "open", slowModeSeconds: 300 });
    expect(
      strictestRules({ mode: "pre_moderation", slowModeSeconds: 30 }, [{ action: "slow_mode", slowModeSeconds: 60 }]),
    ).toEqual({ mode: "pre_moderation", slowModeSeconds: 60 });
  });
});

describe("queue-age alert episodes", () => {
  const now = at("2026-11-26T12:00:00Z");
  const old = at("2026-11-26T11:29:00Z"); // 31 minutes
  const fresh = at("2026-11-26T11:45:00Z");

  it("starts once when a comment has waited longer than the age, and ends when none has", () => {
    expect(alertStep({ open: false, oldestPendingAt: old, alertAfterMinutes: 30, now })).toEqual({ kind: "start" });
    expect(alertStep({ open: true, oldestPendingAt: old, alertAfterMinutes: 30, now })).toEqual({ kind: "none" });
    expect(alertStep({ open: true, oldestPendingAt: fresh, alertAfterMinutes: 30, now })).toEqual({ kind: "end" });
    expect(alertStep({ open: true, oldestPendingAt: null, alertAfterMinutes: 30, now })).toEqual({ kind: "end" });
    expect(alertStep({ open: false, oldestPendingAt: fresh, alertAfterMinutes: 30, now })).toEqual({ kind: "none" });
    // Exactly the age is not longer than it.
    expect(alertStep({ open: false, oldestPendingAt: at("2026-11-26T11:30:00Z"), alertAfterMinutes: 30, now })).toEqual(
      { kind: "none" },
    );
  });

  it("off: nothing starts, an open episode ends", () => {
    expect(alertStep({ open: false, oldestPendingAt: old, alertAfterMinutes: null, now })).toEqual({ kind: "none" });
    expect(alertStep({ open: true, oldestPendingAt: old, alertAfterMinutes: null, now })).toEqual({ kind: "end" });
  });

  it("says durations in words", () => {
    expect(durationInWords(40_000)).toBe("40 s");
    expect(durationInWords(12 * 60_000)).toBe("12 min");
    expect(durationInWords(185 * 60_000)).toBe("3 h 05 min");
    expect(durationInWords(50 * 3600_000)).toBe("2 d 2 h");
  });
});
