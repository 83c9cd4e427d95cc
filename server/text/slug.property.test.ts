/**
 * Slugs in any script (slug.ts) and grapheme-safe cuts (graphemes.ts), over generated text of every
 * script (graphemes of the whole of Unicode) and real sentences in English, Spanish, French, German,
 * Portuguese, Hindi, Tamil and Arabic (the moderation samples). Grapheme boundaries are checked
 * with Intl.Segmenter, independently of the code's walk.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { readSentences, SAMPLED } from "../engagement/moderation/language/sentences/read";
import { firstGrapheme, graphemePrefix, truncateGraphemes } from "./graphemes";
import { decodeSlugParam, isSlug, SLUG_PATTERN, slugify } from "./slug";

const GRAPHEMES = new Intl.Segmenter("und", { granularity: "grapheme" });
const graphemes = (text: string) => [...GRAPHEMES.segment(text)].map((g) => g.segment);
/** Whether `prefix` is `text` cut on one of its grapheme boundaries. */
const cutOnBoundary = (text: string, prefix: string) => {
  if (!text.startsWith(prefix)) return false;
  const kept = graphemes(text);
  let at = 0;
  for (const g of kept) {
    if (at === prefix.length) return true;
    at += g.length;
  }
  return at === prefix.length;
};

const SENTENCES = SAMPLED.flatMap((language) => readSentences(language, "tuning").slice(0, 40));
const anyScript = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.constantFrom(...SENTENCES),
  fc.array(fc.constantFrom(...SENTENCES.flatMap((s) => s.split(/\s+/))), { maxLength: 30 }).map((w) => w.join(" ")),
);
const limit = fc.integer({ min: 1, max: 120 });

describe("slugify", () => {
  it("keeps words of other scripts readable, folds Latin, and hyphenates the rest", () => {
    expect(slugify("World News")).toBe("world-news");
    expect(slugify("  Côte d'Ivoire & Co. ")).toBe("cote-d-ivoire-co");
    expect(slugify("Straße, Ærø, Łódź")).toBe("strasse-aero-lodz");
    expect(slugify("भारत में चुनाव 2026")).toBe("भारत-में-चुनाव-2026");
    expect(slugify("சென்னையில் மழை!")).toBe("சென்னையில்-மழை");
    expect(slugify("الانتخابات في مصر")).toBe("الانتخابات-في-مصر");
    expect(slugify("Ελλάδα και Россия")).toBe("ελλάδα-και-россия");
    expect(slugify("Cricket 🏏 World Cup 👩🏽‍💻")).toBe("cricket-world-cup");
    expect(slugify("ＦＵＬＬ ｗｉｄｔｈ")).toBe("full-width");
    // Decomposed input composes: the same slug as the composed name.
    expect(slugify("कि\u093c")).toBe(slugify("कि\u093c".normalize("NFC")));
    expect(slugify("🎉🎉")).toBe("");
    // Cut on a grapheme boundary: "क्षि" (4 code units) is kept whole or left out.
    expect(slugify("क्षि क्षि", 6)).toBe("क्षि");
    expect(slugify("क्षि", 3)).toBe("");
  });

  it("always gives a slug (or nothing), idempotent, within the limit, cut between graphemes", () => {
    fc.assert(
      fc.property(anyScript, limit, (text, max) => {
        const slug = slugify(text, max);
        if (slug !== "") expect(slug).toMatch(SLUG_PATTERN);
        expect(slug === "" || isSlug(slug, max)).toBe(true);
        expect(slug.length).toBeLessThanOrEqual(max);
        expect(slugify(slug, max)).toBe(slug);
        // The cut keeps whole graphemes of the uncut slug.
        expect(cutOnBoundary(slugify(text, 100_000), slug)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("makes a real word of every sampled language into a non-empty slug", () => {
    for (const sentence of SENTENCES) {
      const slug = slugify(sentence, 1_000);
      expect(slug, sentence).not.toBe("");
      expect(isSlug(slug, 1_000), sentence).toBe(true);
    }
  });
});

describe("decodeSlugParam", () => {
  it("finds the slug however the client encoded it", () => {
    const slug = "भारत-में-चुनाव";
    expect(decodeSlugParam(encodeURIComponent(slug))).toBe(slug);
    expect(decodeSlugParam(encodeURIComponent(encodeURIComponent(slug)))).toBe(slug);
    expect(decodeSlugParam(slug.normalize("NFD"))).toBe(slug);
    expect(decodeSlugParam("%E0%A4")).toBe("%E0%A4");
    fc.assert(
      fc.property(anyScript, (text) => {
        const slug = slugify(text);
        expect(decodeSlugParam(encodeURIComponent(slug))).toBe(slug);
        expect(decodeSlugParam(slug)).toBe(slug);
      }),
      { numRuns: 500 },
    );
  });
});

describe("truncateGraphemes and graphemePrefix", () => {
  it("cut emoji, Devanagari clusters and flags whole", () => {
    expect(truncateGraphemes("👩🏽‍💻 coding", 5)).toBe("…");
    // "स्ते" is one grapheme (a conjunct and its vowel sign): kept whole or left out.
    expect(truncateGraphemes("नमस्ते दुनिया", 6)).toBe("नम…");
    expect(truncateGraphemes("नमस्ते दुनिया", 7)).toBe("नमस्ते…");
    expect(truncateGraphemes("🇮🇳🇮🇳", 5)).toBe("🇮🇳…");
    expect(truncateGraphemes("🇮🇳🇮🇳", 4)).toBe("…");
    expect(truncateGraphemes("short", 5)).toBe("short");
    expect(truncateGraphemes("two words", 5)).toBe("two…");
    expect(truncateGraphemes("भारत में चुनाव के नतीजे", 16, { atWord: true })).toBe("भारत में चुनाव…");
    expect(truncateGraphemes("भारत में चुनाव के नतीजे", 20, { atWord: true })).toBe("भारत में चुनाव के…");
    expect(truncateGraphemes("भारत में चुनाव के नतीजे", 20)).toBe("भारत में चुनाव के न…");
    expect(truncateGraphemes("abcdef", 4, { ellipsis: "..." })).toBe("a...");
    expect(graphemePrefix("e\u0301e\u0301", 3)).toBe("e\u0301");
    expect(firstGrapheme("प्रिया")).toBe("प्रि");
    expect(firstGrapheme("👩🏽‍💻 Ana")).toBe("👩🏽‍💻");
    expect(firstGrapheme("")).toBe("");
  });

  it("never split a grapheme and never exceed the limit", () => {
    fc.assert(
      fc.property(anyScript, fc.integer({ min: 0, max: 120 }), fc.constantFrom("…", "", "..."), (text, max, tail) => {
        const prefix = graphemePrefix(text, max);
        expect(prefix.length).toBeLessThanOrEqual(max);
        expect(cutOnBoundary(text, prefix)).toBe(true);
        // Nothing more fitted: the next grapheme would have crossed the limit.
        const next = graphemes(text.slice(prefix.length))[0];
        if (next !== undefined) expect(prefix.length + next.length).toBeGreaterThan(max);
        const cut = truncateGraphemes(text, max, { ellipsis: tail, atWord: max % 2 === 0 });
        expect(cut.length).toBeLessThanOrEqual(max);
        if (text.length <= max) expect(cut).toBe(text);
        else {
          const body = cut.endsWith(tail) && tail.length <= max ? cut.slice(0, cut.length - tail.length) : cut;
          expect(cutOnBoundary(text, body)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("stays linear in the kept part on a long text", () => {
    const long = "क्षि👩🏽‍💻".repeat(200_000);
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) graphemePrefix(long, 160);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
