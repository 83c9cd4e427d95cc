/**
 * The shipped suspect-word lists (shipped-words.ts): which languages have one, what was left out,
 * and that they match in their scripts as the account's words do.
 */
import ar from "naughty-words/ar.json";
import pt from "naughty-words/pt.json";
import { describe, expect, it } from "vitest";

import { SHIPPED_LIST_LANGUAGES } from "./languages.schema";
import { readSentences } from "./sentences/read";
import { hasShippedWord, SHIPPED_WORDS } from "./shipped-words";

describe("the shipped word lists", () => {
  it("are the languages the dashboard names, each a list of the package less what was left out", () => {
    expect(new Set(SHIPPED_WORDS.keys())).toEqual(SHIPPED_LIST_LANGUAGES);
    expect(SHIPPED_WORDS.has("ta")).toBe(false);
    expect(SHIPPED_WORDS.has("en")).toBe(false);
    for (const [language, words] of SHIPPED_WORDS) expect(words.length, language).toBeGreaterThan(10);
    expect(SHIPPED_WORDS.get("pt")!.length).toBeLessThan(pt.length);
    expect(SHIPPED_WORDS.get("ar")!.length).toBeLessThan(ar.length);
    expect(SHIPPED_WORDS.get("pt")).not.toContain("comer");
    expect(SHIPPED_WORDS.get("pt")).toContain("caralho");
  });

  it("match in each script, whole words only", () => {
    expect(hasShippedWord("Vai tomar no cu, seu merda", "pt")).toBe(true);
    expect(hasShippedWord("Vamos comer juntos depois do jogo", "pt")).toBe(false);
    expect(hasShippedWord("Ce type est un vrai connard.", "fr")).toBe(true);
    expect(hasShippedWord("Du bist ein Arschloch.", "de")).toBe(true);
    expect(hasShippedWord("انت شرموطة", "ar")).toBe(true);
    // The article written onto the word, and short vowels written or not.
    expect(hasShippedWord("هذه الشرموطة", "ar")).toBe(true);
    expect(hasShippedWord("يا شَرْمُوطَة", "ar")).toBe(true);
    expect(hasShippedWord("tu chutiya hai kya", "hi")).toBe(true);
    // A list is read only in comments of its language.
    expect(hasShippedWord("Vai tomar no cu, seu merda", "en")).toBe(false);
    expect(hasShippedWord("Vai tomar no cu, seu merda", null)).toBe(false);
  });

  it("flag few ordinary sentences of the tuning samples", () => {
    for (const language of ["es", "fr", "de", "pt", "ar"] as const) {
      const sentences = readSentences(language, "tuning");
      const flagged = sentences.filter((s) => hasShippedWord(s, language));
      expect(flagged.length, `${language}: ${flagged.join(" | ")}`).toBeLessThanOrEqual(2);
    }
  });
});
