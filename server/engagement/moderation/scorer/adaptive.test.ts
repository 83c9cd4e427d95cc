import { describe, expect, it } from "vitest";

import { ADAPTIVE, adaptiveAdjustment, adaptiveIsActive, applyAdaptive, type AdaptiveStats } from "./adaptive";
import { MAX_TERMS, termsOf } from "./adaptive-terms";
import type { CommentScore } from "./scorer";

const stats = (
  totals: AdaptiveStats["totals"],
  terms: Record<string, [approved: number, rejected: number, spam: number]>,
): AdaptiveStats => ({
  totals,
  terms: new Map(Object.entries(terms).map(([t, [approved, rejected, spam]]) => [t, { approved, rejected, spam }])),
});

const score = (over: Partial<CommentScore> = {}): CommentScore => ({
  toxicity: 45,
  isSpam: false,
  reasons: ["toxicity.profanity"],
  spam: 0,
  ...over,
});

describe("termsOf", () => {
  it("reads words and neighbouring pairs as the scorer reads them, disguises undone, each once", () => {
    expect(termsOf("You're a F*CKING idiot, idiot!")).toEqual([
      "you",
      "you are",
      "are a",
      "fucking",
      "a fucking",
      "idiot",
      "fucking idiot",
    ]);
    // Function words alone are not terms; pairs never cross punctuation or sentences.
    expect(termsOf("The budget. Is wrong")).toEqual(["budget", "the budget", "wrong", "is wrong"]);
  });

  it("keeps at most MAX_TERMS terms of a long comment, and leaves out very long words", () => {
    const long = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(" ");
    expect(termsOf(long)).toHaveLength(MAX_TERMS);
    expect(termsOf(`${"abcdefghij".repeat(5)} ok`)).toEqual(["ok"]);
  });
});

describe("adaptiveAdjustment", () => {
  const totals = { approved: 50, rejected: 10, spam: 5 };

  it("changes nothing before the account has enough decisions of each outcome", () => {
    const few = stats({ approved: 10, rejected: 4, spam: 0 }, { shill: [0, 4, 0] });
    expect(adaptiveAdjustment(few, ["shill"])).toEqual({ toxicity: 0, spam: 0 });
    expect(adaptiveIsActive(few.totals)).toBe(false);
    expect(adaptiveIsActive(totals)).toBe(true);
  });

  it("raises toxicity for terms moderators rejected, lowers it for terms they approved, at most ±25", () => {
    const s = stats(totals, { shill: [0, 10, 0], bloody: [30, 0, 0], budget: [20, 4, 1] });
    const raised = adaptiveAdjustment(s, ["shill"]);
    expect(raised.toxicity).toBeGreaterThan(20);
    expect(raised.toxicity).toBeLessThanOrEqual(ADAPTIVE.maxAdjustment);
    const lowered = adaptiveAdjustment(s, ["bloody"]);
    expect(lowered.toxicity).toBeLessThan(-15);
    expect(lowered.toxicity).toBeGreaterThanOrEqual(-ADAPTIVE.maxAdjustment);
    // A term as common in both outcomes as the outcomes themselves says little.
    expect(Math.abs(adaptiveAdjustment(s, ["budget"]).toxicity)).toBeLessThan(5);
    // Unknown terms, and terms seen once, say nothing.
    expect(adaptiveAdjustment(stats(totals, { rare: [0, 1, 0] }), ["rare", "unknown"])).toEqual({
      toxicity: 0,
      spam: 0,
    });
    // However many telling terms, never beyond the bound.
    const many = stats(
      totals,
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, [0, 10, 0] as [number, number, number]])),
    );
    expect(adaptiveAdjustment(many, [...many.terms.keys()]).toxicity).toBe(ADAPTIVE.maxAdjustment);
  });

  it("moves the spam score by the terms moderators marked spam", () => {
    const s = stats(totals, { airdrop: [0, 0, 5], council: [25, 1, 0] });
    expect(adaptiveAdjustment(s, ["airdrop"]).spam).toBeGreaterThan(15);
    expect(adaptiveAdjustment(s, ["council"]).spam).toBeLessThan(0);
  });
});

describe("applyAdaptive", () => {
  it("adds the adjustment within 0 to 100, with a reason code for each move", () => {
    expect(applyAdaptive(score(), { toxicity: 25, spam: 0 })).toEqual(
      score({ toxicity: 70, reasons: ["toxicity.profanity", "adaptive.raised"] }),
    );
    expect(applyAdaptive(score({ toxicity: 10 }), { toxicity: -25, spam: 0 })).toEqual(
      score({ toxicity: 0, reasons: ["toxicity.profanity", "adaptive.lowered"] }),
    );
    expect(applyAdaptive(score({ toxicity: 90 }), { toxicity: 20, spam: 0 }).toxicity).toBe(100);
    // Less than a point: no move, no reason.
    expect(applyAdaptive(score(), { toxicity: 0.4, spam: -0.4 })).toEqual(score());
    // Already at the bound: nothing moves.
    expect(applyAdaptive(score({ toxicity: 0 }), { toxicity: -10, spam: 0 }).reasons).toEqual(["toxicity.profanity"]);
  });

  it("decides is_spam from the adjusted spam score, reading a missing one from is_spam", () => {
    const spam = applyAdaptive(score({ spam: 40 }), { toxicity: 0, spam: 12 });
    expect(spam).toMatchObject({ spam: 52, isSpam: true });
    expect(spam.reasons).toContain("adaptive.spam_raised");
    const notSpam = applyAdaptive(score({ spam: 55, isSpam: true }), { toxicity: 0, spam: -10 });
    expect(notSpam).toMatchObject({ spam: 45, isSpam: false });
    expect(notSpam.reasons).toContain("adaptive.spam_lowered");
    const { spam: _omitted, ...noSpamScore } = score({ isSpam: true });
    expect(applyAdaptive(noSpamScore, { toxicity: 0, spam: -25 })).toMatchObject({ spam: 75, isSpam: true });
  });
});
