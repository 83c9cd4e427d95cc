/**
 * The scorer's reading of any text: every English word, the names of Object.prototype's and
 * Array.prototype's members, and generated text in the scripts readers write. Each answers a score
 * (finite, 0–100) and never throws: "The constructor of the new bridge said…" once made the scorer
 * throw (a word looked up in a plain object answered Object.prototype.constructor).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  englishWords,
  hugeText,
  inBatches,
  PROTOTYPE_NAMES,
  PROTOTYPE_SENTENCES,
  readerText,
} from "@/server/testing/hostile-text";

import { lexiconScorer } from "./lexicon/lexicon-scorer";
import { normalise } from "./lexicon/text-normalise";
import { contentOf } from "./moderation";
import { explainReason } from "./queue/reasons";
import { bannedWordAction, normaliseForBannedWords, type BannedWord } from "./rules/banned-words";
import type { CommentScore } from "./scorer/scorer";

const READER = { isNew: true, publishedComments: 0, firstCommentAt: null };

function score(text: string): CommentScore {
  return lexiconScorer.score({ ...contentOf([{ insert: text }]), reader: READER }) as CommentScore;
}

function expectScored(text: string) {
  const result = score(text);
  expect(Number.isFinite(result.toxicity) && result.toxicity >= 0 && result.toxicity <= 100, text.slice(0, 80)).toBe(
    true,
  );
  expect(result.reasons.every((r) => typeof r === "string")).toBe(true);
  for (const token of normalise(text).tokens) expect(typeof token.text, text.slice(0, 80)).toBe("string");
}

/** Banned words made of the same text, so that the reader's words meet staff's words. */
const banned = (text: string): BannedWord[] =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((word, i) => ({ word, action: (["reject", "hold", "flag"] as const)[i % 3]! }));

describe("the scorer over reader text", () => {
  it("reads the issue's sentence", () => {
    const result = score("The constructor of the new bridge said the toString of it was valueOf nothing.");
    expect(result.toxicity).toBeLessThan(30);
    expect(normalise("constructor __proto__ hasOwnProperty").canon).toBe("constructor __proto__ hasownproperty");
  });

  it("scores every English word (in comments of 400 words)", () => {
    const comments = inBatches(englishWords(), 400);
    expect(comments.length).toBeGreaterThan(600);
    for (const comment of comments) expectScored(comment);
    // 274,000 words through the scorer: about 6 s alone, several times that beside npm test's other steps.
  }, 240_000);

  it("scores every name of an Object.prototype or Array.prototype member, alone and in sentences", () => {
    expect(PROTOTYPE_NAMES).toEqual(expect.arrayContaining(["constructor", "__proto__", "toString", "flat", "at"]));
    for (const text of PROTOTYPE_SENTENCES) {
      expectScored(text);
      expect(bannedWordAction(text, banned(text))).not.toBeUndefined();
      expect(typeof explainReason(text, { toxicity: 10, threshold: 70 })).toBe("string");
    }
    expect(explainReason("constructor", { toxicity: 0, threshold: 70 })).toBe("Other reason: constructor");
  });

  it("scores generated text in any script, with marks, emoji, NUL and lone surrogates", () => {
    fc.assert(
      fc.property(readerText(), (text) => {
        expectScored(text);
        expect(typeof normaliseForBannedWords(text)).toBe("string");
        expect(["reject", "hold", "flag", null]).toContain(bannedWordAction(text, banned(text)));
      }),
      { numRuns: 400 },
    );
  });

  it("scores bodies of 100 kB", () => {
    fc.assert(
      fc.property(hugeText, (text) => {
        expect(text.length).toBe(100_000);
        expectScored(text);
      }),
      { numRuns: 4 },
    );
  });
});
