import { describe, expect, it } from "vitest";

import { hasChanges, htmlToDiffText, tokenize, wordDiff, type DiffPart } from "./word-diff";

const side = (parts: DiffPart[], keep: "added" | "removed") =>
  parts
    .filter((p) => p.kind === "same" || p.kind === keep)
    .map((p) => p.text)
    .join("");

describe("word diff", () => {
  it("tokenizes into words, whitespace and punctuation that join back to the text", () => {
    expect(tokenize("Hello, world!  It's 2026.")).toEqual([
      "Hello",
      ",",
      " ",
      "world",
      "!",
      "  ",
      "It's",
      " ",
      "2026",
      ".",
    ]);
    expect(tokenize("")).toEqual([]);
  });

  it("marks a replaced word as removed then added, keeping the rest the same", () => {
    expect(wordDiff("The quick brown fox", "The slow brown fox")).toEqual([
      { kind: "same", text: "The " },
      { kind: "removed", text: "quick" },
      { kind: "added", text: "slow" },
      { kind: "same", text: " brown fox" },
    ]);
  });

  it("finds insertions and deletions in the middle by longest common subsequence", () => {
    const parts = wordDiff("a b c d e", "a c d x e");
    expect(parts).toEqual([
      { kind: "same", text: "a " },
      { kind: "removed", text: "b " },
      { kind: "same", text: "c d" },
      { kind: "added", text: " x" },
      { kind: "same", text: " e" },
    ]);
  });

  it("handles empty sides and identical texts", () => {
    expect(wordDiff("", "")).toEqual([]);
    expect(wordDiff("", "new text")).toEqual([{ kind: "added", text: "new text" }]);
    expect(wordDiff("old text", "")).toEqual([{ kind: "removed", text: "old text" }]);
    const same = wordDiff("nothing changed here", "nothing changed here");
    expect(same).toEqual([{ kind: "same", text: "nothing changed here" }]);
    expect(hasChanges(same)).toBe(false);
    expect(hasChanges(wordDiff("a", "b"))).toBe(true);
  });

  it("always rebuilds both texts exactly, including unicode", () => {
    const pairs: [string, string][] = [
      ["Zürich: café prices rise", "Zürich: café prices fall, again"],
      ["one two three four five six", "six five four three two one"],
      ["Line one.\nLine two.", "Line one!\n\nLine 2."],
      ["x", "y z"],
    ];
    for (const [before, after] of pairs) {
      const parts = wordDiff(before, after);
      expect(side(parts, "removed")).toBe(before);
      expect(side(parts, "added")).toBe(after);
      // Merged: no two neighbours of the same kind.
      for (let i = 1; i < parts.length; i++) expect(parts[i]!.kind).not.toBe(parts[i - 1]!.kind);
    }
  });

  it("stays correct (coarser) for two long, entirely different texts", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join(" ");
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join(" ");
    const parts = wordDiff(before, after);
    expect(side(parts, "removed")).toBe(before);
    expect(side(parts, "added")).toBe(after);
  });

  it("turns HTML into text for diffing", () => {
    expect(htmlToDiffText("<p>Hello <strong>world</strong> &amp; more</p><p>Second</p>")).toBe(
      "Hello world & more\nSecond",
    );
  });
});
