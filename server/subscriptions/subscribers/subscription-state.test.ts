import { describe, expect, it } from "vitest";

import {
  addDuration,
  cumulativeEnd,
  cumulativeKind,
  grantsAccess,
  NO_END,
  subscriptionFlags,
  type SubscriptionTiming,
} from "./subscription-state";

const base: SubscriptionTiming = {
  status: "ACTIVE",
  startTimestamp: new Date("2026-01-01T00:00:00Z"),
  endTimestamp: new Date("2026-02-01T00:00:00Z"),
  cancelledAt: null,
  trialEndsAt: null,
  graceEndsAt: null,
  recurring: false,
};
const at = (iso: string) => new Date(iso);

describe("grantsAccess", () => {
  it("grants from start until end, not before or after", () => {
    expect(grantsAccess(base, at("2025-12-31T23:59:59Z"))).toBe(false);
    expect(grantsAccess(base, at("2026-01-15T00:00:00Z"))).toBe(true);
    expect(grantsAccess(base, at("2026-02-01T00:00:00Z"))).toBe(false);
  });
  it("a cancelled subscription keeps access until its end; pending and failed never grant", () => {
    expect(
      grantsAccess(
        { ...base, status: "CANCELLED", cancelledAt: at("2026-01-02T00:00:00Z") },
        at("2026-01-20T00:00:00Z"),
      ),
    ).toBe(true);
    expect(grantsAccess({ ...base, status: "PENDING" }, at("2026-01-20T00:00:00Z"))).toBe(false);
    expect(grantsAccess({ ...base, status: "FAILED" }, at("2026-01-20T00:00:00Z"))).toBe(false);
    expect(grantsAccess({ ...base, deletedAt: at("2026-01-03T00:00:00Z") }, at("2026-01-20T00:00:00Z"))).toBe(false);
  });
  it("no end: grants for ever; grace extends an active one only", () => {
    expect(grantsAccess({ ...base, endTimestamp: null }, at("2099-01-01T00:00:00Z"))).toBe(true);
    const grace = { ...base, graceEndsAt: at("2026-02-08T00:00:00Z") };
    expect(grantsAccess(grace, at("2026-02-05T00:00:00Z"))).toBe(true);
    expect(subscriptionFlags(grace, at("2026-02-05T00:00:00Z"))).toMatchObject({
      in_grace_period: true,
      expired: false,
    });
    expect(grantsAccess({ ...grace, status: "CANCELLED" }, at("2026-02-05T00:00:00Z"))).toBe(false);
  });
  it("awaiting a gateway's word after the end: still reading, neither in grace nor expired", () => {
    const due = at("2026-02-02T00:00:00Z");
    const waiting = { ...base, recurring: true, graceEndsAt: due, gatewayWordDueAt: due };
    expect(grantsAccess(waiting, at("2026-02-01T06:00:00Z"))).toBe(true);
    expect(subscriptionFlags(waiting, at("2026-02-01T06:00:00Z"))).toMatchObject({
      active: true,
      in_grace_period: false,
      expired: false,
    });
    expect(cumulativeEnd([waiting], at("2026-02-01T06:00:00Z"))).toEqual(due);
    expect(grantsAccess(waiting, due)).toBe(false);
  });
});

describe("subscriptionFlags", () => {
  it("derives expired, cancelled, trial, renewable and days left", () => {
    const f = subscriptionFlags(
      { ...base, trialEndsAt: at("2026-01-10T00:00:00Z"), recurring: true },
      at("2026-01-05T12:00:00Z"),
    );
    expect(f).toEqual({
      active: true,
      expired: false,
      cancelled: false,
      in_grace_period: false,
      in_trial_period: true,
      renewable: false,
      expires_in_days: 27,
    });
    expect(subscriptionFlags(base, at("2026-03-01T00:00:00Z"))).toMatchObject({
      active: false,
      expired: true,
      renewable: true,
      expires_in_days: 0,
    });
  });
});

describe("addDuration", () => {
  it("clamps month ends and handles every unit", () => {
    expect(addDuration(at("2026-01-31T10:00:00Z"), 1, "MONTHS")?.toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(addDuration(at("2028-01-31T10:00:00Z"), 1, "MONTHS")?.toISOString()).toBe("2028-02-29T10:00:00.000Z");
    expect(addDuration(at("2026-03-15T00:00:00Z"), 13, "MONTHS")?.toISOString()).toBe("2027-04-15T00:00:00.000Z");
    expect(addDuration(at("2028-02-29T00:00:00Z"), 1, "YEARS")?.toISOString()).toBe("2029-02-28T00:00:00.000Z");
    expect(addDuration(at("2026-01-01T00:00:00Z"), 2, "WEEKS")?.toISOString()).toBe("2026-01-15T00:00:00.000Z");
    expect(addDuration(at("2026-01-01T00:00:00Z"), 3, "DAYS")?.toISOString()).toBe("2026-01-04T00:00:00.000Z");
    expect(addDuration(at("2026-01-01T00:00:00Z"), 1, "LIFETIME")).toBeNull();
  });
});

describe("cumulativeEnd", () => {
  const now = at("2026-01-15T00:00:00Z");
  const renewal: SubscriptionTiming = {
    ...base,
    startTimestamp: at("2026-02-01T00:00:00Z"),
    endTimestamp: at("2026-03-01T00:00:00Z"),
  };
  it("is null when nothing grants access now (pending, failed, ended, future only)", () => {
    expect(cumulativeEnd([], now)).toBeNull();
    expect(
      cumulativeEnd(
        [
          { ...base, status: "PENDING" },
          { ...base, status: "FAILED" },
        ],
        now,
      ),
    ).toBeNull();
    expect(cumulativeEnd([base], at("2026-02-02T00:00:00Z"))).toBeNull();
    expect(cumulativeEnd([renewal], now)).toBeNull();
  });
  it("is the latest end among those granting access, cancelled ones included", () => {
    const later = { ...base, status: "CANCELLED" as const, endTimestamp: at("2026-01-20T00:00:00Z") };
    expect(cumulativeEnd([later, base], now)).toEqual(at("2026-02-01T00:00:00Z"));
  });
  it("follows a renewal that starts when the current one ends, not one after a gap", () => {
    expect(cumulativeEnd([base, renewal], now)).toEqual(at("2026-03-01T00:00:00Z"));
    const gap = { ...renewal, startTimestamp: at("2026-02-02T00:00:00Z") };
    expect(cumulativeEnd([base, gap], now)).toEqual(at("2026-02-01T00:00:00Z"));
  });
  it("is the far date when the run has no end", () => {
    expect(cumulativeEnd([base, { ...renewal, endTimestamp: null }], now)).toEqual(NO_END);
    expect(cumulativeEnd([{ ...base, endTimestamp: null }], now)).toEqual(NO_END);
  });
  it("keeps campaign subscriptions apart and pay per asset out", () => {
    expect(cumulativeKind("CAMPAIGN")).toBe("campaign");
    expect(cumulativeKind("dynamic_asset")).toBeNull();
    expect(cumulativeKind("GROUP_ACCESS")).toBe("standard");
  });
});
