/**
 * npx tsx scripts/moderation/bench-scorer.ts [--rounds 20]
 *
 * How long the default comment scorer (server/engagement/moderation/lexicon/lexicon-scorer.ts) takes per
 * comment, in this process, one comment at a time after a warm-up:
 * - "tuning set": the 400 comments of corpus/tuning.jsonl, each scored --rounds times;
 * - "long": comments of about 2,000 and 10,000 characters (the longest a comment may be) made by
 *   joining tuning comments;
 * - "adversarial": 10,000 characters of letters spelt out, masks, digits, one word repeated,
 *   quotation marks, built to find slow paths.
 * Prints p50, p95, p99 and the maximum per group, in milliseconds. The budget (docs/moderation.md)
 * is a p95 under 5 ms per comment on the tuning set's comments; the exit code is 1 when it is missed.
 */
import fs from "node:fs";
import path from "node:path";

import { lexiconScorer } from "../../server/engagement/moderation/lexicon/lexicon-scorer";
import { contentOf } from "../../server/engagement/moderation/moderation";

const BUDGET_P95_MS = 5;
const args = process.argv.slice(2);
const roundsArg = args.indexOf("--rounds");
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 20;

const corpus = path.join(import.meta.dirname, "../../server/engagement/moderation/lexicon/corpus/tuning.jsonl");
const tuning = fs
  .readFileSync(corpus, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { text: string }).text);

function joinedTo(length: number, offset: number): string {
  let text = "";
  for (let i = offset; text.length < length; i += 1) text += `${tuning[i % tuning.length]} `;
  return text.slice(0, length);
}

const long = [2_000, 2_000, 2_000, 10_000, 10_000].map((length, i) => joinedTo(length, i * 37));
const repeat = (unit: string) => unit.repeat(Math.ceil(10_000 / unit.length)).slice(0, 10_000);
const adversarial = [
  repeat("f u c k "),
  repeat("y o u  a r e  a  "),
  repeat("f*ck 1d10t a$$ "),
  repeat("0 8 0 0 "),
  repeat("idiot "),
  repeat("'you' \"are\" "),
  repeat("muslims immigrants are "),
  repeat("a"),
  repeat("www.x.example/ "),
  repeat("I will kill you and your family, "),
];

const reader = { isNew: true, publishedComments: 0, firstCommentAt: null };
const inputs = (texts: string[]) => texts.map((text) => ({ ...contentOf([{ insert: text }]), reader }));

function measure(texts: string[], times: number): number[] {
  const prepared = inputs(texts);
  const durations: number[] = [];
  for (let round = 0; round < times; round += 1) {
    for (const input of prepared) {
      const start = process.hrtime.bigint();
      const score = lexiconScorer.score(input);
      if (score instanceof Promise) throw new Error("the lexicon scorer is expected to answer synchronously");
      durations.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return durations.sort((a, b) => a - b);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (n: number) => n.toFixed(3).padStart(8);

// Warm-up: compile the regular expressions and let the JIT settle.
measure(tuning, 3);

const groups: [string, string[], number][] = [
  ["tuning set", tuning, rounds],
  ["long (2,000 and 10,000 characters)", long, Math.max(3, Math.round(rounds / 2))],
  ["adversarial (10,000 characters)", adversarial, 3],
];
console.log(`lexicon scorer, ${process.version}, one comment at a time (ms per comment)`);
console.log(
  `${"".padEnd(38)}${"n".padStart(7)}${"p50".padStart(9)}${"p95".padStart(9)}${"p99".padStart(9)}${"max".padStart(9)}`,
);
let tuningP95 = Number.POSITIVE_INFINITY;
for (const [name, texts, times] of groups) {
  const sorted = measure(texts, times);
  const p95 = at(sorted, 0.95);
  if (name === "tuning set") tuningP95 = p95;
  console.log(
    `${name.padEnd(38)}${String(sorted.length).padStart(7)} ${ms(at(sorted, 0.5))} ${ms(p95)} ${ms(at(sorted, 0.99))} ${ms(sorted[sorted.length - 1]!)}`,
  );
}
const met = tuningP95 < BUDGET_P95_MS;
console.log(`budget: p95 under ${BUDGET_P95_MS} ms on the tuning set's comments: ${met ? "met" : "MISSED"}`);
process.exit(met ? 0 : 1);
