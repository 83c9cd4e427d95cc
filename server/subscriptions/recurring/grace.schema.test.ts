import { describe, expect, it } from "vitest";

import { graceAccessEnd, keepReadingWords } from "./grace.schema";

describe("the grace period's one rule", () => {
  it("in grace (a failed charge, still reading): access ends at grace_ends_at, never 'ended'", () => {
    const end = "2026-02-08T00:00:00.000Z";
    expect(graceAccessEnd({ in_grace_period: true, active: true, grace_ends_at: end })).toEqual({ until: end });
    expect(keepReadingWords(end, (iso) => `<${iso}>`)).toBe(`You can keep reading until <${end}>.`);
    expect(graceAccessEnd({ in_grace_period: true, active: true, grace_ends_at: null })).toEqual({ until: null });
    expect(keepReadingWords(null, String)).toBe("You can keep reading for now.");
  });
  it("out of grace, or no longer granting access: not in grace", () => {
    expect(graceAccessEnd({ in_grace_period: false, active: true, grace_ends_at: null })).toBeNull();
    expect(
      graceAccessEnd({ in_grace_period: true, active: false, grace_ends_at: "2026-02-08T00:00:00.000Z" }),
    ).toBeNull();
    expect(graceAccessEnd({})).toBeNull();
  });
});
