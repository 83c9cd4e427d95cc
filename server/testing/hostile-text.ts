/**
 * Reader and staff text that has broken text pipelines, for property tests: every English word (the
 * word-list package, 274,000 words), the names of Object.prototype's and Array.prototype's members
 * (a key into a plain object answers them), and fast-check arbitraries over the scripts and
 * characters readers write: Devanagari, Tamil, Arabic with combining marks, emoji and other astral
 * characters, NUL and lone surrogates, bodies of 100 kB.
 */
import fs from "node:fs";

import fc from "fast-check";
import wordListPath from "word-list";

let words: string[] | null = null;

/** Every word of the English word list, in its order. */
export function englishWords(): string[] {
  words ??= fs.readFileSync(wordListPath, "utf8").split("\n").filter(Boolean);
  return words;
}

/** `list` cut into runs of `size`, each joined by spaces: a few hundred comments instead of 274,000. */
export function inBatches(list: readonly string[], size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size).join(" "));
  return out;
}

/** The names of Object.prototype's and Array.prototype's members ("constructor", "__proto__", "flat"…). */
export const PROTOTYPE_NAMES: readonly string[] = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Array.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    ...Object.getOwnPropertyNames(String.prototype),
  ]),
];

/**
 * A prototype name, Object.prototype's more often (a plain object answers those; most are only
 * a few among Array's and String's).
 */
export const prototypeName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype)),
  fc.constantFrom(...PROTOTYPE_NAMES),
);

/** The prototype names as readers write them: alone, capitalised, in a sentence, as a contraction's neighbour. */
export const PROTOTYPE_SENTENCES: readonly string[] = PROTOTYPE_NAMES.flatMap((name) => [
  name,
  name.toUpperCase(),
  `The ${name} of the new bridge said it's fine.`,
  `"${name}" ${name}-${name} ${name}'s`,
]);

const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map((c) => String.fromCodePoint(c));

/** One character of the scripts and oddities readers send. */
const character = fc.oneof(
  { arbitrary: fc.constantFrom(" ", " ", "\n", ".", ",", "'", '"', "-", "!", "?", "@", "#", "$", "*"), weight: 3 },
  { arbitrary: range(0x61, 0x7a), weight: 4 }, // a–z
  { arbitrary: range(0x0900, 0x097f), weight: 2 }, // Devanagari
  { arbitrary: range(0x0b80, 0x0bff), weight: 2 }, // Tamil
  { arbitrary: range(0x0600, 0x06ff), weight: 2 }, // Arabic, with its combining marks (0x064B–0x065F)
  { arbitrary: range(0x064b, 0x065f), weight: 1 }, // Arabic combining marks alone
  { arbitrary: range(0x0300, 0x036f), weight: 1 }, // Latin combining marks
  { arbitrary: range(0x1f300, 0x1faff), weight: 2 }, // emoji (astral)
  { arbitrary: range(0x10000, 0x10ffff), weight: 1 }, // any astral character
  { arbitrary: fc.constantFrom("\u0000", "\ud800", "\udfff", "\ufeff", "\u200d", "\ufffd"), weight: 1 }, // NUL, lone surrogates, BOM, ZWJ
  { arbitrary: prototypeName.map((name) => ` ${name} `), weight: 2 },
);

/** Text of those characters, `maxLength` characters at most. */
export function readerText(maxLength = 400): fc.Arbitrary<string> {
  return fc.array(character, { maxLength }).map((chars) => chars.join(""));
}

/** A body of about 100 kB: one of the arbitraries' texts repeated. */
export const hugeText: fc.Arbitrary<string> = readerText(60).map((seed) => {
  const unit = seed || "word ";
  return unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
});
