/** What a scorer must answer (ZCommentScore): the optional spam score and categories included. */
import { describe, expect, it } from "vitest";

import { lexiconScorer } from "../lexicon/lexicon-scorer";
import { ZCommentScore } from "./scorer";

const reader = { isNew: false, publishedComments: 4, firstCommentAt: new Date("2026-01-01T00:00:00Z") };

describe("ZCommentScore", () => {
  it("takes a score with or without the spam score and the categories", () => {
    expect(ZCommentScore.safeParse({ toxicity: 12.5, isSpam: false, reasons: [] }).success).toBe(true);
    expect(
      ZCommentScore.safeParse({ toxicity: 80, isSpam: true, reasons: ["x"], spam: 66.7, categories: { threat: 90 } })
        .success,
    ).toBe(true);
  });

  it("refuses a spam score or a category outside 0 to 100", () => {
    expect(ZCommentScore.safeParse({ toxicity: 1, isSpam: false, reasons: [], spam: 101 }).success).toBe(false);
    expect(
      ZCommentScore.safeParse({ toxicity: 1, isSpam: false, reasons: [], categories: { insult: -1 } }).success,
    ).toBe(false);
  });

  it("is what the lexicon scorer answers", () => {
    const score = lexiconScorer.score({
      text: "Shut it, you absolute weasel",
      links: [],
      mentions: [],
      images: [],
      reader,
    });
    expect(ZCommentScore.parse(score)).toEqual(score);
    expect(Object.keys(ZCommentScore.parse(score).categories ?? {}).sort()).toEqual([
      "identity_attack",
      "insult",
      "obscenity",
      "self_harm_incitement",
      "threat",
    ]);
  });
});
