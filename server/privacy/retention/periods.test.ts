import { describe, expect, it } from "vitest";

import { addCounts, cutoffOf, isPastPeriod, logPeriod, settingsFrom, zeroCounts } from "./periods";
import { DEFAULT_PRIVACY_SETTINGS, ZPrivacySettingsInput } from "./privacy-settings.schema";

const NOW = new Date("2026-03-29T12:00:00Z"); // a daylight-saving change in Europe: instants, not local days

describe("retention periods", () => {
  it("cuts off exactly N × 24 hours before now, in UTC", () => {
    expect(cutoffOf(NOW, 30).toISOString()).toBe("2026-02-27T12:00:00.000Z");
    expect(cutoffOf(NOW, 1).toISOString()).toBe("2026-03-28T12:00:00.000Z");
    expect(cutoffOf(NOW, 3650).toISOString()).toBe("2016-03-31T12:00:00.000Z");
  });

  it("keeps what is strictly younger than the period and lets the rest go", () => {
    const edge = cutoffOf(NOW, 30);
    expect(isPastPeriod(edge, NOW, 30)).toBe(true);
    expect(isPastPeriod(new Date(edge.getTime() + 1), NOW, 30)).toBe(false);
    expect(isPastPeriod(new Date(edge.getTime() - 1), NOW, 30)).toBe(true);
    expect(isPastPeriod(NOW, NOW, 1)).toBe(false);
  });

  it("refuses a period that is not a whole number of days of at least one", () => {
    for (const days of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => cutoffOf(NOW, days)).toThrow(RangeError);
    }
  });

  it("never keeps logs longer than the deployment's own purge", () => {
    expect(logPeriod(90, 30)).toBe(30);
    expect(logPeriod(10, 30)).toBe(10);
    expect(logPeriod(90, 0)).toBe(1);
  });

  it("reads no row as the defaults and an unknown erasure rule as keep", () => {
    expect(settingsFrom(null)).toEqual(DEFAULT_PRIVACY_SETTINGS);
    expect(
      settingsFrom({
        ipRetentionDays: 7,
        logRetentionDays: 8,
        deletedCommentRetentionDays: 9,
        erasedReaderComments: "x",
      }),
    ).toEqual({
      ipRetentionDays: 7,
      logRetentionDays: 8,
      deletedCommentRetentionDays: 9,
      erasedReaderComments: "keep",
    });
  });

  it("adds up counts kind by kind", () => {
    const a = { ...zeroCounts(), mails: 2, jobs: 1 };
    expect(addCounts(a, { mails: 3, deletedComments: 4 })).toEqual({
      ...zeroCounts(),
      mails: 5,
      jobs: 1,
      deletedComments: 4,
    });
  });
});

describe("privacy settings validation", () => {
  const good = {
    ipRetentionDays: 30,
    logRetentionDays: 90,
    deletedCommentRetentionDays: 30,
    erasedReaderComments: "keep",
  };

  it("accepts the defaults and the bounds", () => {
    expect(ZPrivacySettingsInput.parse(DEFAULT_PRIVACY_SETTINGS)).toEqual(DEFAULT_PRIVACY_SETTINGS);
    expect(ZPrivacySettingsInput.safeParse({ ...good, ipRetentionDays: 1, logRetentionDays: 3650 }).success).toBe(true);
  });

  it.each([
    ["ipRetentionDays", 0, "at least 1 day"],
    ["logRetentionDays", 3651, "at most 3650 days"],
    ["deletedCommentRetentionDays", 2.5, "whole number"],
    ["ipRetentionDays", "30", "whole number"],
  ])("refuses %s = %s", (field, value, message) => {
    const result = ZPrivacySettingsInput.safeParse({ ...good, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it("refuses an unknown erasure rule and unknown fields", () => {
    expect(ZPrivacySettingsInput.safeParse({ ...good, erasedReaderComments: "anonymise" }).success).toBe(false);
    expect(ZPrivacySettingsInput.safeParse({ ...good, constructor: 1 }).success).toBe(false);
  });
});
