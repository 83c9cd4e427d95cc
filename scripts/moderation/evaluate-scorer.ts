/**
 * npx tsx scripts/moderation/evaluate-scorer.ts <labelled.jsonl> [--threshold 70] [--errors]
 *
 * Scores every comment of a labelled JSONL file (format: server/engagement/moderation/lexicon/corpus/README.md)
 * with the default comment scorer, as a comment by an established reader (so the new-reader link
 * rule plays no part), and prints per class:
 * - toxic: held when toxicity ≥ the threshold (default: the moderation settings' default, 70);
 *   precision, recall, F1 and the confusion counts against toxic / not toxic, with borderline
 *   comments left out (moderators disagree on them) and, on a second line, counted as not toxic;
 *   recall per toxic category; ROC AUC of the toxicity, toxic against ordinary;
 * - spam: held when the scorer says spam (spam ≥ 50); the same figures, and ROC AUC of the spam
 *   score, spam against ordinary;
 * - ordinary and borderline: the share held (for toxicity, spam, either).
 *
 * `--errors` also lists the comments judged wrongly, with their scores and reasons: for the tuning
 * set only. The corpus README's rule: whoever tunes the scorer never runs this on the report set.
 */
import fs from "node:fs";

import { lexiconScorer } from "../../server/engagement/moderation/lexicon/lexicon-scorer";
import { contentOf } from "../../server/engagement/moderation/moderation";
import type { CommentScore } from "../../server/engagement/moderation/scorer/scorer";
import { MODERATION_DEFAULTS } from "../../server/engagement/moderation/settings.schema";
import { confusion, rocAuc } from "./metrics";

type Labelled = { id: string; text: string; label: "toxic" | "spam" | "ordinary" | "borderline"; categories: string[] };
type Scored = Labelled & { score: CommentScore; toxicHeld: boolean; spamHeld: boolean };

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--threshold");
const thresholdArg = args.indexOf("--threshold");
const threshold = thresholdArg >= 0 ? Number(args[thresholdArg + 1]) : MODERATION_DEFAULTS.toxicityThreshold;
const showErrors = args.includes("--errors");
if (!file || !Number.isFinite(threshold)) {
  console.error("usage: npx tsx scripts/moderation/evaluate-scorer.ts <labelled.jsonl> [--threshold 70] [--errors]");
  process.exit(2);
}

const ESTABLISHED_READER = { isNew: false, publishedComments: 20, firstCommentAt: new Date("2026-01-01T00:00:00Z") };

const rows: Labelled[] = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Labelled);

const scored: Scored[] = [];
for (const row of rows) {
  const score = await lexiconScorer.score({ ...contentOf([{ insert: row.text }]), reader: ESTABLISHED_READER });
  scored.push({ ...row, score, toxicHeld: score.toxicity >= threshold, spamHeld: score.isSpam });
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const f3 = (n: number) => n.toFixed(3);

const line = (name: string, c: ReturnType<typeof confusion>) =>
  `  ${name}: precision ${f3(c.precision)}  recall ${f3(c.recall)}  F1 ${f3(c.f1)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn}, tn ${c.tn})`;

const count = (label: Labelled["label"]) => scored.filter((s) => s.label === label).length;
const notBorderline = scored.filter((s) => s.label !== "borderline");
const ordinary = scored.filter((s) => s.label === "ordinary");
const borderline = scored.filter((s) => s.label === "borderline");
const spamScore = (s: Scored) => s.score.spam ?? (s.score.isSpam ? 100 : 0);

const out: string[] = [];
out.push(
  `${file}: ${scored.length} comments (${count("toxic")} toxic, ${count("ordinary")} ordinary, ${count("spam")} spam, ${count("borderline")} borderline)`,
);
out.push(`toxic (held at toxicity ≥ ${threshold}):`);
out.push(
  line(
    "without borderline",
    confusion(
      notBorderline,
      (s) => s.label === "toxic",
      (s) => s.toxicHeld,
    ),
  ),
);
out.push(
  line(
    "borderline as not toxic",
    confusion(
      scored,
      (s) => s.label === "toxic",
      (s) => s.toxicHeld,
    ),
  ),
);
const toxicAuc = rocAuc(
  scored.filter((s) => s.label === "toxic").map((s) => s.score.toxicity),
  ordinary.map((s) => s.score.toxicity),
);
out.push(`  ROC AUC toxicity, toxic vs ordinary: ${f3(toxicAuc)}`);
const toxicCategories = [...new Set(scored.filter((s) => s.label === "toxic").flatMap((s) => s.categories))].sort();
for (const category of toxicCategories) {
  const inCategory = scored.filter((s) => s.label === "toxic" && s.categories.includes(category));
  const found = inCategory.filter((s) => s.toxicHeld).length;
  out.push(`  recall ${category}: ${found}/${inCategory.length}`);
}

out.push("spam (held when the scorer says spam):");
out.push(
  line(
    "without borderline",
    confusion(
      notBorderline,
      (s) => s.label === "spam",
      (s) => s.spamHeld,
    ),
  ),
);
out.push(
  line(
    "borderline as not spam",
    confusion(
      scored,
      (s) => s.label === "spam",
      (s) => s.spamHeld,
    ),
  ),
);
const spamAuc = rocAuc(scored.filter((s) => s.label === "spam").map(spamScore), ordinary.map(spamScore));
out.push(`  ROC AUC spam score, spam vs ordinary: ${f3(spamAuc)}`);

const share = (items: Scored[], held: (s: Scored) => boolean) =>
  `${pct(items.length ? items.filter(held).length / items.length : 0)} (${items.filter(held).length}/${items.length})`;
out.push("held:");
out.push(
  `  ordinary: ${share(ordinary, (s) => s.toxicHeld || s.spamHeld)}  (toxicity ${share(ordinary, (s) => s.toxicHeld)}, spam ${share(ordinary, (s) => s.spamHeld)})`,
);
out.push(
  `  borderline: ${share(borderline, (s) => s.toxicHeld || s.spamHeld)}  (toxicity ${share(borderline, (s) => s.toxicHeld)}, spam ${share(borderline, (s) => s.spamHeld)})`,
);
out.push(
  `  spam held as toxic: ${share(
    scored.filter((s) => s.label === "spam"),
    (s) => s.toxicHeld,
  )}; toxic held as spam: ${share(
    scored.filter((s) => s.label === "toxic"),
    (s) => s.spamHeld,
  )}`,
);

if (showErrors) {
  out.push("judged wrongly:");
  for (const s of scored) {
    const wrong =
      s.label === "toxic"
        ? !s.toxicHeld
        : s.label === "spam"
          ? !s.spamHeld
          : s.label === "ordinary"
            ? s.toxicHeld || s.spamHeld
            : false;
    if (!wrong) continue;
    out.push(
      `  ${s.id} ${s.label} [${s.categories.join(",")}] toxicity ${s.score.toxicity} spam ${spamScore(s)} ${s.score.reasons.join(" ")}: ${s.text}`,
    );
  }
}
console.log(out.join("\n"));
