/**
 * The sentence samples of ./README.md, for tests and the evaluation script: one sentence per line.
 */
import fs from "node:fs";
import path from "node:path";

/** The languages sampled: the eight of Masthead, and Italian and Dutch (Latin script, not Masthead's). */
export const SAMPLED = ["en", "es", "fr", "de", "pt", "hi", "ta", "ar", "it", "nl"] as const;
export type Sampled = (typeof SAMPLED)[number];

/** The sentences of one language's tuning or held-out sample. */
export function readSentences(language: Sampled, set: "tuning" | "held-out"): string[] {
  const file = path.join(import.meta.dirname, `${language}.${set}.txt`);
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}
