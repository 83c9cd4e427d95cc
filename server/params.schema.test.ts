import { describe, expect, it } from "vitest";

import { parseWholeNumber, PG_INT_MAX, zWholeNumber } from "./params.schema";

/** Text that is a number to Number() or z.coerce.number() but not in canonical decimal digits. */
const NOT_CANONICAL = [
  "",
  " ",
  " 5",
  "5 ",
  "\t5",
  "5\n",
  "+5",
  "0x10",
  "0X10",
  "0o17",
  "0b101",
  "1e1",
  "1E1",
  "5.",
  "5.0",
  ".5",
  "010",
  "00",
  "-0",
  "--5",
  "1_000",
  "1,000",
  "Infinity",
  "NaN",
  "\u0665", // Arabic-Indic five
  "\uff15", // full-width five
  "5\u0000",
  "9007199254740993", // beyond Number.MAX_SAFE_INTEGER: rounds
  "99999999999999999999",
];

describe("parseWholeNumber (the one rule for numbers that arrive as text)", () => {
  it("takes canonical decimal digits only", () => {
    expect(["0", "5", "10", "2147483647", "9007199254740991"].map((t) => parseWholeNumber(t))).toEqual([
      0, 5, 10, 2_147_483_647, 9_007_199_254_740_991,
    ]);
    expect(NOT_CANONICAL.filter((text) => parseWholeNumber(text) !== null)).toEqual([]);
  });

  it("takes a leading - only where negatives make sense", () => {
    expect(parseWholeNumber("-5")).toBeNull();
    expect(parseWholeNumber("-5", { negative: true })).toBe(-5);
    expect(parseWholeNumber("-9007199254740991", { negative: true })).toBe(-9_007_199_254_740_991);
    for (const text of ["-0", "-", "-05", "- 5", "-+5", "-0x1", "-1e1"])
      expect(parseWholeNumber(text, { negative: true }), text).toBeNull();
  });

  it("takes JSON numbers (a bulk body) when they are safe integers", () => {
    expect(parseWholeNumber(7)).toBe(7);
    for (const value of [2.5, Number.NaN, Infinity, 2 ** 53, -1, true, null, undefined, [5], { n: 5 }])
      expect(parseWholeNumber(value), JSON.stringify(value)).toBeNull();
    expect(parseWholeNumber(-1, { negative: true })).toBe(-1);
  });
});

describe("zWholeNumber", () => {
  it("bounds the value and names the problem", () => {
    const id = zWholeNumber({ min: 1, max: PG_INT_MAX });
    expect(id.parse("42")).toBe(42);
    expect(id.safeParse("0").error?.issues[0]?.message).toMatch(/at least 1/);
    expect(id.safeParse("2147483648").error?.issues[0]?.message).toMatch(/at most 2147483647/);
    expect(id.safeParse("0x10").error?.issues[0]?.message).toMatch(/whole number/);
    expect(NOT_CANONICAL.filter((text) => zWholeNumber().safeParse(text).success)).toEqual([]);
  });
});
