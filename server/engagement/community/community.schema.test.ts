import { describe, expect, it } from "vitest";

import {
  readerStatus,
  suspensionEndProblem,
  ZBanForGoodInput,
  ZReaderSearchInput,
  ZRejectCommentsInput,
  ZSuspendInput,
  ZWarnInput,
} from "./community.schema";

const NOW = new Date("2026-11-25T12:00:00.000Z");

describe("a reader's standing", () => {
  it("is banned for a ban without an end, suspended for one with, warned, or active; a ban outranks a warning", () => {
    expect(readerStatus({ expiresAt: null }, true)).toBe("banned");
    expect(readerStatus({ expiresAt: new Date("2026-12-01T00:00:00Z") }, true)).toBe("suspended");
    expect(readerStatus(null, true)).toBe("warned");
    expect(readerStatus(null, false)).toBe("active");
  });
});

describe("the end of a suspension", () => {
  it("must be to come and within ten years", () => {
    expect(suspensionEndProblem(new Date("2026-11-25T12:00:01.000Z"), NOW)).toBeNull();
    expect(suspensionEndProblem(NOW, NOW)).toBe("must be in the future");
    expect(suspensionEndProblem(new Date("2026-11-24T00:00:00Z"), NOW)).toBe("must be in the future");
    expect(suspensionEndProblem(new Date(NOW.getTime() + 3650 * 86_400_000), NOW)).toBeNull();
    expect(suspensionEndProblem(new Date(NOW.getTime() + 3651 * 86_400_000), NOW)).toMatch(/within 3650 days/);
    expect(suspensionEndProblem(new Date("nonsense"), NOW)).toBe("must be a date and time");
  });
});

describe("community inputs", () => {
  it("fill their defaults and trim what people type", () => {
    expect(ZReaderSearchInput.parse({})).toEqual({ q: "", status: "all", hasPending: false, limit: 20 });
    expect(ZReaderSearchInput.parse({ q: "  ada  " }).q).toBe("ada");
    expect(ZBanForGoodInput.parse({ memberId: 1, reason: " Troll " })).toEqual({
      memberId: 1,
      reason: "Troll",
      message: "",
      rejectPending: false,
    });
    expect(ZRejectCommentsInput.parse({ memberId: 3 })).toEqual({ memberId: 3, scope: "pending" });
    expect(ZWarnInput.parse({ memberId: 2, message: "  Be kind.\n" }).message).toBe("Be kind.");
  });

  it("refuse what is not valid", () => {
    for (const bad of [
      { limit: 0 },
      { limit: 51 },
      { status: "nobody" },
      { q: "x".repeat(201) },
      { hasPending: "yes" },
    ])
      expect(ZReaderSearchInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(ZWarnInput.safeParse({ memberId: 1, message: "   " }).success).toBe(false);
    expect(ZWarnInput.safeParse({ memberId: 1, message: "x".repeat(1001) }).success).toBe(false);
    expect(ZWarnInput.safeParse({ memberId: 1, message: "bell\u0007" }).success).toBe(false);
    expect(ZWarnInput.safeParse({ memberId: 0, message: "Hi" }).success).toBe(false);
    expect(ZWarnInput.safeParse({ memberId: 2_147_483_648, message: "Hi" }).success).toBe(false);
    expect(ZBanForGoodInput.safeParse({ memberId: 1, reason: "" }).success).toBe(false);
    expect(ZSuspendInput.safeParse({ memberId: 1, reason: "x", until: "2026-12-01" }).success).toBe(false);
    expect(ZSuspendInput.safeParse({ memberId: 1, reason: "x", until: new Date("2026-12-01") }).success).toBe(true);
    expect(ZRejectCommentsInput.safeParse({ memberId: 1, scope: "everything" }).success).toBe(false);
  });
});
