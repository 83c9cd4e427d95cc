/**
 * npx tsx scripts/moderation/train-scorer.ts [--check]
 *
 * Trains the comment scorer's model (server/engagement/moderation/lexicon/model/, docs/moderation.md "The
 * trained model") on the training material (model/train.ts TRAINING_FILES: the tuning set, the
 * retired report set, the development examples and model/extra-examples.jsonl; never the current
 * report set) and writes model/weights.json. Deterministic: the same material gives the same file,
 * byte for byte. About 15 s on one core.
 *
 * `--check` writes nothing and exits 1 when the shipped file differs from what training gives.
 */
import fs from "node:fs";

import {
  buildWeightsFile,
  serialiseWeightsFile,
  WEIGHTS_PATH,
} from "../../server/engagement/moderation/lexicon/model/train";

const check = process.argv.includes("--check");
const started = Date.now();
const file = buildWeightsFile();
const text = serialiseWeightsFile(file);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const counts = Object.entries(file.trainedOn.examples)
  .map(([label, n]) => `${n} ${label}`)
  .join(", ");
console.log(`trained on ${counts} in ${seconds} s`);
console.log(`toxic: holds at p ≥ ${file.toxic.holdAt}; spam: spam at q ≥ ${file.spam.holdAt}`);
if (check) {
  const same = fs.existsSync(WEIGHTS_PATH) && fs.readFileSync(WEIGHTS_PATH, "utf8") === text;
  console.log(same ? "weights.json is what training gives" : "weights.json differs from what training gives");
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(WEIGHTS_PATH, text);
console.log(`wrote ${WEIGHTS_PATH} (${(text.length / 1024).toFixed(0)} KiB)`);
