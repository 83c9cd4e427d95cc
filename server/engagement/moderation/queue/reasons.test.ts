import { describe, expect, it } from "vitest";

import type { TCommentOp } from "../../comments.schema";
import { explainReason, explainReasons, findHighlights, KNOWN_REASON_CODES, withoutOverlaps } from "./reasons";

const ops = (...inserts: (string | TCommentOp)[]): TCommentOp[] =>
  inserts.map((i) => (typeof i === "string" ? { insert: i } : i));
const words = (text: string, spans: { start: number; end: number }[]) => spans.map((s) => text.slice(s.start, s.end));

describe("explainReason", () => {
  it("says every code the scorer and moderation write in plain words", () => {
    for (const code of KNOWN_REASON_CODES) {
      const text = explainReason(code, { toxicity: 80, threshold: 70 });
      expect(text, code).not.toContain(code);
      expect(text.length, code).toBeGreaterThan(5);
    }
    expect(explainReason("spam.new_reader_link", { toxicity: 0, threshold: 70 })).toBe("Link from a new reader");
    expect(explainReason("held.banned_word", { toxicity: 0, threshold: 70 })).toBe("Held: a banned word");
  });

  it("gives the toxicity and the threshold of a toxicity hold", () => {
    expect(explainReason("held.toxicity", { toxicity: 82, threshold: 70 })).toBe("Held: toxicity 82 ≥ threshold 70");
    expect(explainReason("held.toxicity", { toxicity: 77.3, threshold: 70 })).toBe(
      "Held: toxicity 77.3 ≥ threshold 70",
    );
    expect(explainReason("held.toxicity", { toxicity: 60, threshold: 70 })).toBe(
      "Held: toxicity 60 < threshold 70 (the threshold was lower when it was held)",
    );
  });

  it("shows another scorer's codes as they are, each reason once", () => {
    expect(explainReason("mymodel.weird", { toxicity: 0, threshold: 70 })).toBe("Other reason: mymodel.weird");
    expect(explainReasons(["held.spam", "held.spam", "spam.phrase"], { toxicity: 0, threshold: 70 })).toHaveLength(2);
  });
});

describe("findHighlights", () => {
  it("marks the account's banned words as banned-words.ts matches them (leetspeak, any case, phrases)", () => {
    const text = "Buy a G1ZMO from Acme  Corp today, not gizmology\n";
    const found = findHighlights({
      ops: ops(text),
      reasons: ["held.banned_word"],
      bannedWords: [
        { word: "gizmo", action: "hold" },
        { word: "acme corp", action: "reject" },
      ],
    });
    expect(words(text, found)).toEqual(["G1ZMO", "Acme  Corp"]);
    expect(found.map((h) => [h.kind, h.label])).toEqual([
      ["banned", "Banned word (holds)"],
      ["banned", "Banned word (refuses)"],
    ]);
  });

  it("marks listed abusive words when the scorer found toxicity, and not otherwise", () => {
    const text = "you idiot, you absolute m0ron";
    const toxic = findHighlights({ ops: ops(text), reasons: ["toxicity.insult", "held.toxicity"], bannedWords: [] });
    expect(words(text, toxic)).toEqual(["idiot", "m0ron"]);
    expect(toxic.every((h) => h.kind === "toxic")).toBe(true);
    expect(findHighlights({ ops: ops(text), reasons: [], bannedWords: [] })).toEqual([]);
  });

  it("marks spam phrases at word edges and links (typed or link ops) when the scorer found spam", () => {
    const text = "Click here: www.example.shop or my site ";
    const found = findHighlights({
      ops: ops(text, { insert: "deals", attributes: { link: "https://deals.example.com" } }),
      reasons: ["spam.phrase", "held.spam"],
      bannedWords: [],
    });
    const all = text + "deals";
    expect(found.map((h) => [all.slice(h.start, h.end), h.kind])).toEqual([
      ["Click here", "spam"],
      ["www.example.shop", "link"],
      ["deals", "link"],
    ]);
    expect(
      findHighlights({ ops: ops("clickhere buy nowhere"), reasons: ["spam.phrase"], bannedWords: [] }).map(
        (h) => h.kind,
      ),
    ).toEqual([]);
  });

  it("marks a new reader's link when that held the comment, and nothing in mentions or images", () => {
    const text = "see https://example.org/a ";
    const found = findHighlights({
      ops: ops(text, { insert: { mention: "x" } } as unknown as TCommentOp),
      reasons: ["held.new_reader_link"],
      bannedWords: [],
    });
    expect(words(text, found)).toEqual(["https://example.org/a"]);
  });
});

describe("withoutOverlaps", () => {
  it("keeps the stronger span where two overlap, sorted by start", () => {
    expect(
      withoutOverlaps([
        { start: 0, end: 10, kind: "link", label: "Link" },
        { start: 2, end: 5, kind: "banned", label: "Banned" },
        { start: 12, end: 14, kind: "spam", label: "Spam" },
        { start: 12, end: 16, kind: "spam", label: "Spam" },
        { start: 20, end: 20, kind: "toxic", label: "empty" },
      ]),
    ).toEqual([
      { start: 2, end: 5, kind: "banned", label: "Banned" },
      { start: 12, end: 16, kind: "spam", label: "Spam" },
    ]);
  });
});
