/** Banned words, new readers, the scorer's input and the moderation decision. */
import { describe, expect, it } from "vitest";

import {
  contentOf,
  decideModeration,
  isNewReader,
  SUSPECT_WORD_REASON,
  type ModerationSettingsView,
} from "./moderation";
import { bannedWordAction, normaliseForBannedWords } from "./rules/banned-words";
import { pastedListOf, wordsOfPastedList, ZBannedWords } from "./settings.schema";

const DEFAULTS: ModerationSettingsView = {
  mode: "post_moderation",
  toxicityThreshold: 70,
  bannedWords: [],
  holdLinksFromNewReaders: true,
  unscoredLanguages: "publish",
  languageWordLists: "flag",
};
const OLD = { isNew: false, publishedComments: 5, firstCommentAt: new Date("2026-01-01T00:00:00Z") };
const NEW = { isNew: true, publishedComments: 0, firstCommentAt: null };
const CLEAN = { toxicity: 0, isSpam: false, reasons: [] };

describe("banned words", () => {
  it("match whole words and phrases after normalisation, never inside a word", () => {
    expect(normaliseForBannedWords("Sp4mmy  BRAND!")).toBe(" spamy brand ");
    const words = [
      { word: "spammy brand", action: "hold" as const },
      { word: "cunt", action: "reject" as const },
    ];
    expect(bannedWordAction("I love Spämmy-Brand", words)).toBe("hold");
    expect(bannedWordAction("Scunthorpe", words)).toBeNull();
    // Letters spaced out are words of one letter: not matched (a known limit).
    expect(bannedWordAction("c.u.n.t", words)).toBeNull();
    expect(bannedWordAction("spammy brand and a CUUUNT", words)).toBe("reject");
    expect(bannedWordAction("anything", [{ word: "!!!", action: "reject" }])).toBeNull();
  });

  it("answer the strictest action found: reject, then hold, then flag (a suspect word)", () => {
    const words = [
      { word: "suspect", action: "flag" as const },
      { word: "held", action: "hold" as const },
      { word: "refused", action: "reject" as const },
    ];
    expect(bannedWordAction("a SUSP3CT word", words)).toBe("flag");
    expect(bannedWordAction("suspect and held", words)).toBe("hold");
    expect(bannedWordAction("held, suspect, refused", words)).toBe("reject");
    expect(bannedWordAction("nothing here", words)).toBeNull();
  });

  it("read a pasted list: one per line, commas and semicolons too, trimmed, each once", () => {
    expect(wordsOfPastedList("  spam \r\n\nbuy  now, cheap pills;\nSp4m\n ,, \n")).toEqual([
      "spam",
      "buy now",
      "cheap pills",
    ]);
    expect(wordsOfPastedList("")).toEqual([]);
    const words = [
      { word: "a", action: "hold" as const },
      { word: "b", action: "flag" as const },
      { word: "c", action: "hold" as const },
    ];
    expect(pastedListOf(words, "hold")).toBe("a\nc");
    expect(pastedListOf(words, "reject")).toBe("");
    // A word in two lists is refused, naming it.
    const twice = ZBannedWords.safeParse([
      { word: "spam", action: "hold" },
      { word: "SPAM", action: "flag" },
    ]);
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]).toMatchObject({ path: [1, "word"], message: "is listed twice" });
  });
});

describe("isNewReader", () => {
  const now = new Date("2026-02-10T00:00:00Z");
  it("is new until 3 days after the first comment and 3 published comments", () => {
    expect(isNewReader({ firstCommentAt: null, publishedComments: 0 }, now)).toBe(true);
    expect(isNewReader({ firstCommentAt: new Date("2026-02-08T00:00:00Z"), publishedComments: 9 }, now)).toBe(true);
    expect(isNewReader({ firstCommentAt: new Date("2026-01-01T00:00:00Z"), publishedComments: 2 }, now)).toBe(true);
    expect(isNewReader({ firstCommentAt: new Date("2026-02-07T00:00:00Z"), publishedComments: 3 }, now)).toBe(false);
  });
});

describe("contentOf", () => {
  it("gathers text, links (ops and URLs in the text, once each), mentions and images", () => {
    const content = contentOf([
      { insert: "See www.example.com and " },
      { attributes: { link: "https://a.example/x" }, insert: "this" },
      {
        attributes: { mention: { name: "Bo", slug: "bo", id: "7" }, link: "bo" },
        insert: { mentions: true },
      },
      { insert: { image: "https://img.example/1.png" } },
      { insert: " https://a.example/x\n" },
    ]);
    expect(content).toEqual({
      text: "See www.example.com and this https://a.example/x\n",
      links: ["https://a.example/x", "www.example.com"],
      mentions: [{ id: "7", name: "Bo" }],
      images: ["https://img.example/1.png"],
    });
  });
});

describe("decideModeration", () => {
  const content = (text: string, links: string[] = []) => ({ text, links, mentions: [], images: [] });
  it("publishes a clean comment and holds for each reason", () => {
    expect(decideModeration({ content: content("hi"), reader: OLD, score: CLEAN, settings: DEFAULTS })).toEqual({
      reject: false,
      isPublished: true,
      isSpam: false,
      toxicity: 0,
      reasons: [],
    });
    const held = (args: Partial<Parameters<typeof decideModeration>[0]>) =>
      decideModeration({ content: content("hi"), reader: OLD, score: CLEAN, settings: DEFAULTS, ...args });
    expect(held({ settings: { ...DEFAULTS, mode: "pre_moderation" } })).toMatchObject({
      isPublished: false,
      reasons: ["held.pre_moderation"],
    });
    expect(held({ score: { toxicity: 70, isSpam: false, reasons: ["toxicity.insult"] } })).toMatchObject({
      isPublished: false,
      toxicity: 70,
      reasons: ["toxicity.insult", "held.toxicity"],
    });
    expect(held({ score: { toxicity: 69.9, isSpam: false, reasons: [] } })).toMatchObject({ isPublished: true });
    expect(held({ score: { toxicity: 0, isSpam: true, reasons: [] } })).toMatchObject({
      isPublished: false,
      isSpam: true,
    });
    expect(held({ reader: NEW, content: content("x", ["https://a.example"]) })).toMatchObject({
      isPublished: false,
      reasons: ["held.new_reader_link"],
    });
    expect(
      held({
        reader: NEW,
        content: content("x", ["https://a.example"]),
        settings: { ...DEFAULTS, holdLinksFromNewReaders: false },
      }),
    ).toMatchObject({ isPublished: true });
    const bannedWords = [
      { word: "widget", action: "hold" as const },
      { word: "gizmo", action: "reject" as const },
    ];
    expect(held({ content: content("a widget"), settings: { ...DEFAULTS, bannedWords } })).toMatchObject({
      isPublished: false,
      reasons: ["held.banned_word"],
    });
    expect(held({ content: content("a widget and a gizmo"), settings: { ...DEFAULTS, bannedWords } })).toEqual({
      reject: true,
    });
  });

  it("publishes a comment with a suspect word, flagged for a moderator; a hold still holds", () => {
    const bannedWords = [
      { word: "gadget", action: "flag" as const },
      { word: "widget", action: "hold" as const },
    ];
    const settings = { ...DEFAULTS, bannedWords };
    expect(decideModeration({ content: content("a gadget"), reader: OLD, score: CLEAN, settings })).toEqual({
      reject: false,
      isPublished: true,
      isSpam: false,
      toxicity: 0,
      reasons: [SUSPECT_WORD_REASON],
    });
    expect(
      decideModeration({ content: content("a gadget widget"), reader: OLD, score: CLEAN, settings }),
    ).toMatchObject({ isPublished: false, reasons: ["held.banned_word"] });
  });
});
