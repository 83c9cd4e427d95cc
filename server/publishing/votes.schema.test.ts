import { describe, expect, it } from "vitest";

import { ZVoteInput } from "./votes.schema";

describe("vote input", () => {
  it("takes the vote magnitude as the spec's string or a number, nothing else", () => {
    expect(["1", "+1", 1].map((m) => ZVoteInput.parse({ magnitude: m }).magnitude)).toEqual([1, 1, 1]);
    expect(["-1", -1].map((m) => ZVoteInput.parse({ magnitude: m }).magnitude)).toEqual([-1, -1]);
    for (const bad of ["0", "2", 2, "up", null, true])
      expect(ZVoteInput.safeParse({ magnitude: bad }).success).toBe(false);
  });
});
