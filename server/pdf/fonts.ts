/**
 * The fonts documents embed (docs/i18n.md "PDFs"): Noto Sans and its Devanagari, Tamil and Arabic
 * families (SIL Open Font License 1.1), regular and bold, TrueType files from the
 * `@expo-google-fonts/noto-sans*` packages, read from node_modules at run time (next.config.js
 * traces them into the invoice routes' output). pdfkit embeds each used font as a subset of the
 * glyphs the document draws, and shapes text with fontkit's OpenType shapers (Indic, Arabic).
 *
 * Each locale has its font first (Hindi: Devanagari, Tamil: Tamil, Arabic: Arabic, the others:
 * Noto Sans, which has Latin, Greek, Cyrillic and Devanagari); a character the first font lacks
 * takes the first of the others that has it, so a Latin plan name on a Tamil invoice or an Arabic
 * subscriber name on an English one is drawn in a font that has its letters. A character none has
 * (Chinese, emoji) is drawn with the locale's font, as its missing-glyph box.
 */
import fs from "node:fs";
import path from "node:path";

import * as fontkit from "fontkit";

import type { Locale } from "@/i18n/locales";

export type FontFamily = "latin" | "devanagari" | "tamil" | "arabic";
export type FontWeight = "regular" | "bold";

const FILES: Record<FontFamily, { pkg: string; base: string }> = {
  latin: { pkg: "noto-sans", base: "NotoSans" },
  devanagari: { pkg: "noto-sans-devanagari", base: "NotoSansDevanagari" },
  tamil: { pkg: "noto-sans-tamil", base: "NotoSansTamil" },
  arabic: { pkg: "noto-sans-arabic", base: "NotoSansArabic" },
};

const WEIGHT_DIR: Record<FontWeight, string> = { regular: "400Regular", bold: "700Bold" };

/** The font file's path: node_modules under the working directory (`next start`, tests, scripts). */
function fontPath(family: FontFamily, weight: FontWeight): string {
  const { pkg, base } = FILES[family];
  const dir = WEIGHT_DIR[weight];
  return path.join(process.cwd(), "node_modules", "@expo-google-fonts", pkg, dir, `${base}_${dir}.ttf`);
}

const LOCALE_FAMILY: Partial<Record<Locale, FontFamily>> = { hi: "devanagari", ta: "tamil", ar: "arabic" };
const ALL: readonly FontFamily[] = ["latin", "devanagari", "tamil", "arabic"];

/** The families a document in `locale` tries, in order. */
export function fontStack(locale: Locale): FontFamily[] {
  const first = LOCALE_FAMILY[locale] ?? "latin";
  return [first, ...ALL.filter((f) => f !== first)];
}

type Loaded = {
  data: Buffer;
  hasGlyph: (codePoint: number) => boolean;
  /** Ascent and descent (negative) in ems. */
  ascent: number;
  descent: number;
};
const loaded = new Map<string, Loaded>();

/** A font's bytes and its character map, read once per process. */
export function loadFont(family: FontFamily, weight: FontWeight): Loaded {
  const id = `${family}-${weight}`;
  let font = loaded.get(id);
  if (!font) {
    const data = fs.readFileSync(fontPath(family, weight));
    const parsed = fontkit.create(data);
    font = {
      data,
      hasGlyph: (cp) => parsed.hasGlyphForCodePoint(cp),
      ascent: parsed.ascent / parsed.unitsPerEm,
      descent: parsed.descent / parsed.unitsPerEm,
    };
    loaded.set(id, font);
  }
  return font;
}

/** Characters any font may draw with its neighbours: spaces, joiners, marks of direction. */
const INVISIBLE = /[\s\u200B-\u200F\u061C\u2060\uFEFF]/u;

const SCRIPTS: readonly [string, RegExp][] = [
  ["Latn", /\p{Script=Latin}/u],
  ["Deva", /\p{Script=Devanagari}/u],
  ["Taml", /\p{Script=Tamil}/u],
  ["Arab", /\p{Script=Arabic}/u],
  ["Grek", /\p{Script=Greek}/u],
  ["Cyrl", /\p{Script=Cyrillic}/u],
];

/** A letter's script, or null for what belongs to no script (digits, punctuation, marks, spaces). */
function scriptOf(char: string): string | null {
  if (/[\p{Script=Common}\p{Script=Inherited}]/u.test(char)) return null;
  return SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? "Zzzz";
}

/** The family drawing a visible character: the first of the stack that has it, else the first. */
function familyFor(char: string, stack: readonly FontFamily[], weight: FontWeight): FontFamily {
  const cp = char.codePointAt(0)!;
  return stack.find((f) => loadFont(f, weight).hasGlyph(cp)) ?? stack[0]!;
}

/**
 * A text cut into stretches of one family and one script each, in order (see the file's comment):
 * the shaper chooses its rules (Indic, Arabic, Latin) by a run's first letter, so a Latin word and
 * a Hindi word are never one run. Spaces, marks, digits and punctuation stay with the run they are in.
 */
export function fontRuns(
  text: string,
  stack: readonly FontFamily[],
  weight: FontWeight,
): { text: string; family: FontFamily }[] {
  const runs: { text: string; family: FontFamily; script: string | null }[] = [];
  for (const char of text) {
    const last = runs.at(-1);
    const script = scriptOf(char);
    const family = INVISIBLE.test(char) || /\p{M}/u.test(char) ? null : familyFor(char, stack, weight);
    const joins =
      last &&
      (family === null || family === last.family) &&
      (script === null || last.script === null || script === last.script);
    if (last && joins) {
      last.text += char;
      last.script ??= script;
    } else runs.push({ text: char, family: family ?? familyFor("a", stack, weight), script });
  }
  return runs.map(({ text: t, family }) => ({ text: t, family }));
}
