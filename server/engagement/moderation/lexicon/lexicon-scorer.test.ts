/** The lexicon scorer: single cases, and precision and recall on the labelled examples. */
import { describe, expect, it } from "vitest";

import { contentOf } from "../moderation";
import type { CommentScore } from "../scorer/scorer";
import { LABELLED_EXAMPLES, type Label } from "./labelled-examples";
import { lexiconScorer, scoreSpam, scoreToxicity } from "./lexicon-scorer";

/** The default threshold of the moderation settings. */
const THRESHOLD = 70;

const OLD_READER = { isNew: false, publishedComments: 10, firstCommentAt: new Date("2026-01-01T00:00:00Z") };

function scoreExample(example: (typeof LABELLED_EXAMPLES)[number]): CommentScore {
  const ops = [
    { insert: example.text },
    ...(example.links ?? []).map((link, i) => ({ attributes: { link }, insert: `link ${i + 1}` })),
  ];
  const reader = example.newReader ? { isNew: true, publishedComments: 0, firstCommentAt: null } : OLD_READER;
  return lexiconScorer.score({ ...contentOf(ops), reader }) as CommentScore;
}

function precisionRecall(rows: { actual: boolean; predicted: boolean }[]) {
  const tp = rows.filter((r) => r.actual && r.predicted).length;
  const fp = rows.filter((r) => !r.actual && r.predicted).length;
  const fn = rows.filter((r) => r.actual && !r.predicted).length;
  return { tp, fp, fn, precision: tp / (tp + fp || 1), recall: tp / (tp + fn || 1) };
}

describe("scoreToxicity", () => {
  it("is 0 for clean text and for words that merely contain a rude one", () => {
    for (const text of ["Lovely weather in Scunthorpe", "this assassin novel", "grapes", "the cocktail menu"]) {
      expect(scoreToxicity(text), text).toEqual({ toxicity: 0, reasons: [] });
    }
  });

  it("combines signals as a noisy OR: an insult 35, aimed at the reader 77.3", () => {
    expect(scoreToxicity("idiots everywhere").toxicity).toBe(35);
    // 1 − (1 − 0.35)(1 − 0.65) = 0.7725
    expect(scoreToxicity("you idiot")).toEqual({ toxicity: 77.3, reasons: ["toxicity.insult", "toxicity.aimed"] });
  });

  it("gives the examples of docs/engagement.md", () => {
    expect(scoreToxicity("idiots everywhere").toxicity).toBe(35);
    expect(scoreToxicity("you idiot").toxicity).toBe(77.3);
    expect(scoreToxicity("this is fucking brilliant").toxicity).toBe(45);
    expect(scoreToxicity("fuck you").toxicity).toBe(80.8);
    expect(scoreToxicity("kys").toxicity).toBe(90);
  });

  it("reads leetspeak and stretched letters, and counts a repeated word once", () => {
    expect(scoreToxicity("f4ck").toxicity).toBe(45);
    expect(scoreToxicity("fuuuuuck fuck FUCK").toxicity).toBe(45);
    expect(scoreToxicity("you 1d10t").toxicity).toBe(77.3);
  });

  it("holds threats and slurs above the default threshold on their own", () => {
    expect(scoreToxicity("kys").toxicity).toBeGreaterThanOrEqual(THRESHOLD);
    expect(scoreToxicity("a chink in the armour").reasons).toContain("toxicity.slur");
  });

  it("adds shouting only to another signal", () => {
    expect(scoreToxicity("THIS IS A DISGRACE").toxicity).toBe(0);
    expect(scoreToxicity("STUPID STUPID PEOPLE").reasons).toContain("toxicity.shouting");
  });
});

describe("scoreSpam", () => {
  const reader = OLD_READER;
  it("adds points per heuristic and is spam at 1", () => {
    expect(scoreSpam({ text: "click here", links: [], reader })).toEqual({
      points: 0.6,
      isSpam: false,
      reasons: ["spam.phrase"],
    });
    expect(scoreSpam({ text: "click here", links: ["https://x.example"], reader })).toMatchObject({
      points: 1.5,
      isSpam: true,
    });
    expect(scoreSpam({ text: "read", links: ["a", "b", "c", "d", "e"], reader }).isSpam).toBe(true);
    expect(scoreSpam({ text: "no no no, never", links: [], reader }).isSpam).toBe(false);
    expect(scoreSpam({ text: "buy buy buy buy buy buy", links: [], reader }).isSpam).toBe(true);
  });

  it("counts a link from a new reader, and a link-only comment", () => {
    const link = ["https://x.example"];
    expect(scoreSpam({ text: "https://x.example", links: link, reader }).points).toBe(0.5);
    expect(scoreSpam({ text: "https://x.example", links: link, reader: { ...reader, isNew: true } }).reasons).toEqual([
      "spam.link_only",
      "spam.new_reader_link",
    ]);
  });
});

describe("labelled examples", () => {
  it("reach the measured precision and recall (printed)", () => {
    const results = LABELLED_EXAMPLES.map((example) => ({ example, score: scoreExample(example) }));
    const toxic = precisionRecall(
      results.map(({ example, score }) => ({
        actual: example.label === "toxic",
        predicted: score.toxicity >= THRESHOLD,
      })),
    );
    const spam = precisionRecall(
      results.map(({ example, score }) => ({ actual: example.label === "spam", predicted: score.isSpam })),
    );
    const wrong = results.filter(({ example, score }) => {
      const predicted: Label[] = [];
      if (score.toxicity >= THRESHOLD) predicted.push("toxic");
      if (score.isSpam) predicted.push("spam");
      return example.label === "fine" ? predicted.length > 0 : !predicted.includes(example.label);
    });
    const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
    const count = (label: Label) => LABELLED_EXAMPLES.filter((e) => e.label === label).length;
    process.stdout.write(
      [
        `labelled examples: ${LABELLED_EXAMPLES.length} (${count("toxic")} toxic, ${count("spam")} spam, ${count("fine")} fine)`,
        `toxicity ≥ ${THRESHOLD}: precision ${pct(toxic.precision)}, recall ${pct(toxic.recall)} (tp ${toxic.tp}, fp ${toxic.fp}, fn ${toxic.fn})`,
        `spam: precision ${pct(spam.precision)}, recall ${pct(spam.recall)} (tp ${spam.tp}, fp ${spam.fp}, fn ${spam.fn})`,
        ...wrong.map(
          ({ example, score }) =>
            `  misjudged (${example.label}): ${JSON.stringify(example.text)} → toxicity ${score.toxicity}, spam ${score.isSpam}`,
        ),
        "",
      ].join("\n"),
    );
    expect(LABELLED_EXAMPLES.length).toBeGreaterThanOrEqual(55);
    // The levels measured when the set was written (95 % / 95 % and 100 % / 86.7 %): a change to
    // the lists or weights that loses more than one case fails here.
    expect(toxic.precision).toBeGreaterThanOrEqual(0.9);
    expect(toxic.recall).toBeGreaterThanOrEqual(0.9);
    expect(spam.precision).toBeGreaterThanOrEqual(0.9);
    expect(spam.recall).toBeGreaterThanOrEqual(0.8);
  });
});
