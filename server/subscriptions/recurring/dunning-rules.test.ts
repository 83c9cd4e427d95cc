import { describe, expect, it } from "vitest";

import {
  chargeRetryDaysOf,
  DEFAULT_DUNNING,
  dunningSettingsOf,
  graceEndOf,
  nextChargeRetryAt,
  remainingChargeRetries,
} from "./dunning-rules";

const at = (iso: string) => new Date(iso);
const episode = {
  startedAt: at("2026-03-01T00:00:00Z"),
  retryDays: [1, 3, 5],
  retriesDone: 0,
  graceEndsAt: at("2026-03-08T00:00:00Z"),
};

describe("dunning rules", () => {
  it("retries N whole days after the failure, in order, while the grace period lasts", () => {
    expect(nextChargeRetryAt(episode)?.toISOString()).toBe("2026-03-02T00:00:00.000Z");
    expect(nextChargeRetryAt({ ...episode, retriesDone: 1 })?.toISOString()).toBe("2026-03-04T00:00:00.000Z");
    expect(nextChargeRetryAt({ ...episode, retriesDone: 2 })?.toISOString()).toBe("2026-03-06T00:00:00.000Z");
    expect(nextChargeRetryAt({ ...episode, retriesDone: 3 })).toBeNull();
    expect(remainingChargeRetries(episode).map((d) => d.toISOString().slice(0, 10))).toEqual([
      "2026-03-02",
      "2026-03-04",
      "2026-03-06",
    ]);
    // A retry at or after the grace period's end never comes.
    expect(nextChargeRetryAt({ ...episode, retriesDone: 2, graceEndsAt: at("2026-03-06T00:00:00Z") })).toBeNull();
    expect(remainingChargeRetries({ ...episode, retryDays: [] })).toEqual([]);
  });

  it("reads a plan's settings, defaulting to no retries and 7 days of grace", () => {
    expect(dunningSettingsOf(null)).toEqual(DEFAULT_DUNNING);
    expect(DEFAULT_DUNNING).toEqual({ retryDays: [], graceDays: 7 });
    expect(dunningSettingsOf({ chargeRetryDays: [5, 1, 3, 3], gracePeriodDays: 10 })).toEqual({
      retryDays: [1, 3, 5],
      graceDays: 10,
    });
    // Whatever else a row holds is dropped.
    expect(chargeRetryDaysOf({ days: [1] })).toEqual([]);
    expect(chargeRetryDaysOf([0, -1, 1.5, "2", 2, 91])).toEqual([2]);
    expect(graceEndOf(at("2026-03-01T00:00:00Z"), 7).toISOString()).toBe("2026-03-08T00:00:00.000Z");
  });
});
