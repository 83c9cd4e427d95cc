/**
 * npx tsx scripts/moderation/evaluate-language.ts [--set tuning|held-out]
 *
 * Moderation in each language on real sentences (server/engagement/moderation/language/sentences,
 * README there), by default the held-out samples (150 sentences a language), which were not read
 * while the detector was built. Prints, per language:
 * - the comment language detector (language/detect.ts): the share read as each language, on the
 *   whole sentences and on their first 4 and 6 words (comments are often short), and for the
 *   languages other than English the share read as English (scored as English when they are not);
 * - on the whole sentences, as ordinary comments by an established reader: the share the built-in
 *   scorer would hold for toxicity (≥ 70), the share it calls spam, the share with a word of the
 *   language's shipped list (language/shipped-words.ts), and the highest toxicity it gave.
 * Then the same detector on the labelled English-style comments of the moderation corpus
 * (tuning.jsonl, retired-report-1.jsonl, development-examples.jsonl: the report set is never read).
 *
 * These are sentences of news and web pages, not reader comments, and none is abusive: they
 * measure how often moderation errs on ordinary text in each language, not how much abuse it finds.
 */
import fs from "node:fs";
import path from "node:path";

import { detectLanguage } from "../../server/engagement/moderation/language/detect";
import { readSentences, SAMPLED, type Sampled } from "../../server/engagement/moderation/language/sentences/read";
import { hasShippedWord } from "../../server/engagement/moderation/language/shipped-words";
import { lexiconScorer } from "../../server/engagement/moderation/lexicon/lexicon-scorer";
import type { CommentScore } from "../../server/engagement/moderation/scorer/scorer";

const args = process.argv.slice(2);
const setArg = args.indexOf("--set");
const set = setArg >= 0 ? args[setArg + 1] : "held-out";
if (set !== "tuning" && set !== "held-out") {
  console.error("usage: npx tsx scripts/moderation/evaluate-language.ts [--set tuning|held-out]");
  process.exit(2);
}

const READER = { isNew: false, publishedComments: 20, firstCommentAt: new Date("2026-01-01T00:00:00Z") };
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
const firstWords = (text: string, n: number) => text.split(/\s+/).slice(0, n).join(" ");

function readAs(sentences: readonly string[], expected: Sampled): string {
  const counts = new Map<string, number>();
  for (const s of sentences) {
    const language = detectLanguage(s).language ?? "not told";
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  // Italian and Dutch are no language of Masthead's: right is "not English" (it is then unscored).
  const foreign = expected === "it" || expected === "nl";
  const right = foreign
    ? sentences.length - (counts.get("en") ?? 0) - (counts.get("not told") ?? 0)
    : (counts.get(expected) ?? 0);
  const english = expected === "en" ? "" : `, as English ${pct(counts.get("en") ?? 0, sentences.length)}`;
  const rest = [...counts]
    .filter(([l]) => l !== expected)
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `${l} ${n}`)
    .join(", ");
  return `${foreign ? "not English" : "right"} ${pct(right, sentences.length)}${english} (${rest || "none else"})`;
}

console.log(`Sentences: the ${set} samples\n`);
for (const language of SAMPLED) {
  const sentences = readSentences(language, set);
  console.log(`${language} (${sentences.length} sentences)`);
  console.log(`  detector, whole sentences: ${readAs(sentences, language)}`);
  for (const n of [6, 4]) {
    console.log(
      `  detector, first ${n} words:  ${readAs(
        sentences.map((s) => firstWords(s, n)),
        language,
      )}`,
    );
  }
  const scores = sentences.map(
    (text) => lexiconScorer.score({ text, links: [], mentions: [], images: [], reader: READER }) as CommentScore,
  );
  const toxic = scores.filter((s) => s.toxicity >= 70).length;
  const spam = scores.filter((s) => s.isSpam).length;
  const listLanguage = language === "it" || language === "nl" ? null : language;
  const shipped = sentences.filter((s) => hasShippedWord(s, listLanguage)).length;
  const highest = Math.max(...scores.map((s) => s.toxicity));
  console.log(
    `  built-in scorer: held for toxicity ${pct(toxic, sentences.length)}, spam ${pct(spam, sentences.length)}, ` +
      `highest toxicity ${highest}; shipped-list word ${pct(shipped, sentences.length)}`,
  );
}

const MODERATION = path.join(import.meta.dirname, "../../server/engagement/moderation/lexicon");
console.log("\nThe moderation corpus's comments (written in English but for a few on purpose):");
for (const file of ["corpus/tuning.jsonl", "corpus/retired-report-1.jsonl", "development-examples.jsonl"]) {
  const texts = fs
    .readFileSync(path.join(MODERATION, file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  const counts = new Map<string, number>();
  for (const t of texts) {
    const language = detectLanguage(t).language ?? "not told";
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  console.log(
    `  ${file} (${texts.length}): ${[...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([l, n]) => `${l} ${n}`)
      .join(", ")}`,
  );
}
