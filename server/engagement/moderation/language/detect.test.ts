/**
 * The comment language detector (detect.ts) on real sentences of the tuning samples
 * (sentences/README.md) and on the disguises readers use. The held-out samples are measured by
 * scripts/moderation/evaluate-language.ts, not here.
 */
import { describe, expect, it } from "vitest";

import { detectLanguage, MIN_LATIN_WORDS } from "./detect";
import { readSentences, type Sampled } from "./sentences/read";

const share = (language: Sampled, expected: string | null) => {
  const sentences = readSentences(language, "tuning");
  return sentences.filter((s) => detectLanguage(s).language === expected).length / sentences.length;
};

describe("the language of a comment", () => {
  it("is read from the script for Devanagari, Tamil and Arabic", () => {
    expect(share("hi", "hi")).toBeGreaterThanOrEqual(0.95);
    expect(share("ta", "ta")).toBe(1);
    expect(share("ar", "ar")).toBe(1);
    expect(detectLanguage("नमस्ते")).toEqual({ language: "hi", script: "devanagari" });
    expect(detectLanguage("வணக்கம்")).toEqual({ language: "ta", script: "tamil" });
    expect(detectLanguage("شكرا")).toEqual({ language: "ar", script: "arabic" });
    expect(detectLanguage("Это очень хорошая статья, спасибо").language).toBe("other");
    expect(detectLanguage("在家轻松赚钱").language).toBe("other");
  });

  it("tells the Latin-script languages apart, doubt going to English", () => {
    expect(share("en", "en")).toBeGreaterThanOrEqual(0.95);
    for (const language of ["es", "fr", "de", "pt"] as const) {
      expect(share(language, language), language).toBeGreaterThanOrEqual(0.85);
      expect(share(language, "en"), language).toBeLessThanOrEqual(0.05);
    }
  });

  it("does not tell short Latin-script comments, nor words spelt out or in leetspeak", () => {
    expect(detectLanguage("Great piece, thanks").language).toBeNull();
    expect(detectLanguage("Muy buen artículo").language).toBeNull();
    expect("Great piece, thanks".split(" ").length).toBeLessThan(MIN_LATIN_WORDS);
    expect(detectLanguage("k y s, seriously").language).toBeNull();
    expect(detectLanguage("Y0u 4r3 4n 1d10t and a fool").language).toBeNull();
    expect(detectLanguage("👍👍👍 !!!")).toEqual({ language: null, script: null });
  });

  it("reads look-alike Cyrillic and Greek letters as the Latin they disguise", () => {
    expect(detectLanguage("ѕhυt υр уου ιdιοt and go away now").language).toBe("en");
  });

  it("leaves links, addresses and markup out", () => {
    expect(detectLanguage("यह देखिए https://example.com/the-news-of-the-day-in-english").language).toBe("hi");
    expect(detectLanguage("Nice post. [url=http://x.example]replica watches cheap here[/url]").language).toBe("en");
  });

  it("reads romanised Hindi by its function words", () => {
    expect(detectLanguage("yeh kya bakwas hai yaar, tum log kuch nahi samajhte").language).toBe("hi");
    expect(detectLanguage("bhai ye article bahut accha hai").language).toBe("hi");
    expect(detectLanguage("This article is really good, thanks for writing it").language).toBe("en");
  });

  it("answers for any text without throwing", () => {
    for (const text of ["", " ", "\u0000", "\ud800", "a".repeat(20_000), "का ".repeat(5000)]) {
      expect(() => detectLanguage(text)).not.toThrow();
    }
  });
});
