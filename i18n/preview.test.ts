import { describe, expect, it } from "vitest";

import { messagesOf } from "./messages";
import { pluralSamples, previewMessage } from "./preview";

describe("pluralSamples", () => {
  it("finds one number for each plural category the locale uses, by CLDR's rules", () => {
    expect(pluralSamples("en")).toEqual([0, 1]);
    expect(pluralSamples("ar")).toEqual([0, 1, 2, 3, 11, 100]);
    expect(pluralSamples("fr")).toEqual([0, 2, 1_000_000]);
    // Every sample of every locale falls in a different category.
    for (const locale of ["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"] as const) {
      const rules = new Intl.PluralRules(locale);
      const categories = pluralSamples(locale).map((n) => rules.select(n));
      expect(new Set(categories).size).toBe(categories.length);
    }
  });
});

describe("previewMessage", () => {
  it("shows a count once per plural category, in the locale's own words", () => {
    const arabic = messagesOf("widgets", "ar").get("commentCount")!;
    const lines = previewMessage("ar", arabic, [{ name: "n", kind: "plural", options: [] }]);
    expect(lines.map((l) => l.label)).toEqual(["n = 0", "n = 1", "n = 2", "n = 3", "n = 11", "n = 100"]);
    // Six categories, and Arabic words for them: at least four different sentences.
    expect(new Set(lines.map((l) => l.text)).size).toBeGreaterThanOrEqual(4);
    expect(lines[3]!.text).toMatch(/٣|3/);
  });

  it("stands in for text arguments by name, picks a select's named option and formats dates", () => {
    const [line] = previewMessage("de", "Hallo {name}, {tone, select, formal {Sie} other {du}} – {when, date, long}", [
      { name: "name", kind: "argument", options: [] },
      { name: "tone", kind: "select", options: ["formal", "other"] },
      { name: "when", kind: "date", options: [] },
    ]);
    expect(line).toEqual({ label: "Preview", text: "Hallo ‹name›, Sie – 14. März 2027" });
  });

  it("throws on a message that does not parse", () => {
    expect(() => previewMessage("en", "{n, plural, one {#}", [])).toThrow();
  });
});
