/**
 * Moderation in the account's languages (docs/moderation.md "Languages"), through comment
 * creation with the built-in scorer: a comment in a language the built-in scorer does not read is
 * published unscored, held, or scored by the external scorer, as the account chooses; English
 * comments are scored as before; a word of the shipped list of the comment's language flags or
 * holds it. Real sentences from the samples of language/sentences (README.md there).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../../env.js";
import { postComment, reader, scoringSetup } from "../../testing/comment-scoring";
import { readSentences } from "./language/sentences/read";

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

const HINDI = readSentences("hi", "tuning")[3]!;
const TAMIL = readSentences("ta", "tuning")[0]!;
const ENGLISH = "The council finally published the budget, and the figures for housing look better than last year.";

/** An external scorer on 127.0.0.1 answering `toxicity` (or a status), recording the texts it was sent. */
async function externalScorerAt(answer: () => { status: number; toxicity: number }) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { text: string }).text);
      const a = answer();
      res.writeHead(a.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ toxicity: a.toxicity, isSpam: false, reasons: ["external.read"] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("MODERATION_SCORER_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}/score`);
  vi.stubEnv("MODERATION_SCORER_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("MODERATION_SCORER_TIMEOUT_MS", "5000");
  resetEnvCache();
  return { seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("comments in languages the built-in scorer does not read", () => {
  it("are published unscored by default, held when the account pre-moderates them; English is scored as before", async () => {
    const s = await scoringSetup();
    const settings = await s.moderator.caller.moderation.settings();
    expect(settings).toMatchObject({ unscoredLanguages: "publish", languageWordLists: "flag" });

    const published = await postComment(s, HINDI);
    expect(published.isPublished).toBe(true);
    expect(published.moderationReasons).toEqual(expect.arrayContaining(["unscored.language", "language.hi"]));
    expect(published.moderationReasons).not.toContain("held.unscored_language");

    const result = await s.moderator.caller.moderation.updateSettings({ unscoredLanguages: "pre_moderate" });
    expect(result.changed).toEqual(["unscoredLanguages"]);
    // Another reader (the same text by the same reader within 10 s is answered as the first).
    const held = await postComment(s, HINDI, { user: reader("bo") });
    expect(held.isPublished).toBe(false);
    expect(held.moderationReasons).toEqual(
      expect.arrayContaining(["unscored.language", "language.hi", "held.unscored_language"]),
    );
    const tamil = await postComment(s, TAMIL);
    expect(tamil.isPublished).toBe(false);
    expect(tamil.moderationReasons).toEqual(expect.arrayContaining(["language.ta", "held.unscored_language"]));

    // English: scored by the built-in scorer, whatever the choice for other languages.
    const ordinary = await postComment(s, ENGLISH);
    expect(ordinary.isPublished).toBe(true);
    expect(ordinary.moderationReasons.filter((r) => r.includes("language"))).toEqual([]);
    const insult = await postComment(s, "You are a pathetic idiot and everyone here knows it.");
    expect(insult.isPublished).toBe(false);
    expect(insult.toxicity).toBeGreaterThanOrEqual(70);
    expect(insult.moderationReasons).toContain("held.toxicity");
    expect(insult.moderationReasons).not.toContain("unscored.language");

    // The change is audited with what was and what is.
    const audit = await s.db.auditLog.findFirstOrThrow({
      where: { accountId: s.accountId, action: "comment_moderation.update" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.metadata).toMatchObject({ unscoredLanguages: { from: "publish", to: "pre_moderate" } });
  });

  it("go to the external scorer when the account chooses it, and wait when it cannot answer", async () => {
    const s = await scoringSetup();
    // No external scorer configured: the choice is refused, nothing changes.
    await expect(s.moderator.caller.moderation.updateSettings({ unscoredLanguages: "external" })).rejects.toMatchObject(
      { code: "UNPROCESSABLE_CONTENT" },
    );
    expect((await s.moderator.caller.moderation.settings()).unscoredLanguages).toBe("publish");

    let status = 200;
    const scorer = await externalScorerAt(() => ({ status, toxicity: 12 }));
    try {
      await s.moderator.caller.moderation.updateSettings({ unscoredLanguages: "external" });
      const scored = await postComment(s, HINDI, { user: reader("al") });
      expect(scored).toMatchObject({ isPublished: true, toxicity: 12 });
      expect(scored.moderationReasons).toEqual(["external.read"]);
      // English still goes to the built-in scorer (the account's live scoring does not use the external one).
      await postComment(s, ENGLISH);
      expect(scorer.seen).toEqual([`${HINDI}\n`]);
      // The external scorer fails: the built-in one answers, so the comment is unscored and waits.
      status = 503;
      const fallback = await postComment(s, HINDI, {
        user: reader("bea"),
      });
      expect(fallback.isPublished).toBe(false);
      expect(fallback.moderationReasons).toEqual(
        expect.arrayContaining(["scorer.fallback", "unscored.language", "held.unscored_language"]),
      );
    } finally {
      await scorer.close();
    }
  });
});

describe("the shipped word lists", () => {
  it("flag a comment with a word of its language's list, or hold it, as the account chooses", async () => {
    const s = await scoringSetup();
    const text = "Ese ministro no es más que un lameculos del banco central, y todos lo sabemos.";
    const flagged = await postComment(s, text);
    expect(flagged.isPublished).toBe(true);
    expect(flagged.moderationReasons).toEqual(
      expect.arrayContaining(["language.word_list", "flagged.suspect_word", "language.es"]),
    );
    // In the Reported tab until a moderator decides.
    const reported = await s.moderator.caller.moderation.queue({ tab: "reported" });
    expect(reported.items.map((i) => i.id)).toContain(flagged.id);

    await s.moderator.caller.moderation.updateSettings({ languageWordLists: "hold" });
    const held = await postComment(s, text, {
      user: reader("cy"),
    });
    expect(held.isPublished).toBe(false);
    expect(held.moderationReasons).toContain("held.language_word_list");

    await s.moderator.caller.moderation.updateSettings({ languageWordLists: "off" });
    const ignored = await postComment(s, text, {
      user: reader("di"),
    });
    expect(ignored.moderationReasons).not.toContain("language.word_list");
    // An ordinary Spanish comment carries no word of the list.
    await s.moderator.caller.moderation.updateSettings({ languageWordLists: "flag" });
    const plain = await postComment(s, "Muy buen artículo, gracias por explicar la reforma con tanto detalle.", {
      user: reader("ed"),
    });
    expect(plain.moderationReasons).not.toContain("language.word_list");
  });

  it("and the account's own words hold a comment in Devanagari, Tamil or Arabic script", async () => {
    const s = await scoringSetup();
    await s.moderator.caller.moderation.updateSettings({
      bannedWords: [
        { word: "कमीना", action: "hold" },
        { word: "முட்டாள்", action: "hold" },
        { word: "حمار", action: "reject" },
      ],
    });
    expect((await postComment(s, "वह आदमी कमीना है।")).moderationReasons).toContain("held.banned_word");
    expect((await postComment(s, "நீ ஒரு முட்டாள்.")).moderationReasons).toContain("held.banned_word");
    await expect(postComment(s, "يا الحمار")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Words that share letters with them are not they.
    const other = await postComment(s, "यह कम अच्छा है, पर काम चलेगा।");
    expect(other.moderationReasons).not.toContain("held.banned_word");
  });
});
