/**
 * The language of a comment (docs/moderation.md, "Languages"; decision 0041): small and stated.
 *
 * 1. Cyrillic and Greek letters that all look Latin ("уоu аrе") are read as Latin. Letters (and
 *    vowel signs) are counted by script (links and e-mail addresses left out). When at least half are
 *    of scripts other than Latin, the commonest of those decides: Devanagari → hi, Tamil → ta,
 *    Arabic → ar (so Marathi or Nepali read as Hindi, Urdu or Persian as Arabic), any other →
 *    "other".
 * 2. Latin script with fewer than MIN_LATIN_WORDS words of two letters or more is not told (null):
 *    too short to tell. Letters spelt out ("k y s") and leetspeak ("y0u 4r3") are not words here.
 * 3. Romanised Hindi ("yeh kya bakwas hai"): at least two of its function words
 *    (ROMANISED_HINDI_STOP_WORDS), and more than of any other language's, read as hi.
 * 4. Otherwise franc-min's trigram detector, limited to English, Spanish, French, German and
 *    Portuguese, guesses. Its guess of a language other than English stands only when the
 *    commonest function words (stop-words.ts) agree: more of that language's than of English's,
 *    or none of English's while franc rates English below ENGLISH_CLOSE of its guess. Otherwise
 *    the comment is English: a comment wrongly read as English is scored as today, a comment
 *    wrongly read as another language is treated as unscored, so doubt goes to English.
 *
 * The first DETECTED_LENGTH characters decide. Measured by scripts/moderation/evaluate-language.ts (figures in docs/moderation.md).
 */
import { francAll } from "franc-min";

import { URL_IN_TEXT } from "../lexicon/spam-patterns";
import { foldText } from "../lexicon/text-normalise";
import { LATIN_LANGUAGES, type CommentLanguage, type LatinLanguage } from "./languages.schema";
import { ROMANISED_HINDI_STOP_WORDS, STOP_WORDS } from "./stop-words";

/** Latin-script comments shorter than this many words are not told apart. */
export const MIN_LATIN_WORDS = 4;
/** franc's score of English, relative to its best guess, above which a guess without function words is doubted. */
const ENGLISH_CLOSE = 0.9;

const FRANC_CODES = new Map<string, LatinLanguage>([
  ["eng", "en"],
  ["spa", "es"],
  ["fra", "fr"],
  ["deu", "de"],
  ["por", "pt"],
]);
const FRANC_ONLY = [...FRANC_CODES.keys()];

type Script = "latin" | "devanagari" | "tamil" | "arabic" | "other";
const SCRIPT_LANGUAGE: ReadonlyMap<Script, CommentLanguage> = new Map<Script, CommentLanguage>([
  ["devanagari", "hi"],
  ["tamil", "ta"],
  ["arabic", "ar"],
  ["other", "other"],
]);

type LanguageReading = {
  /** The language, or null when the text is too short (or has no letters) to tell. */
  language: CommentLanguage | null;
  /** The script most of its letters are written in; null without letters. */
  script: Script | null;
};

/** HTML tags and BBCode ("[url=…]", "[/url]"): markup, not words. */
const MARKUP = /<[^>]{0,200}>|\[\/?[a-z]{1,10}(?:=[^\]]{0,200})?\]/gi;
const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}.-]{1,253}\.\p{L}{2,24}/gu;
/** The first this many characters of a comment decide its language (the rest would only cost time). */
const DETECTED_LENGTH = 2_000;
/** Of which the trigram detector reads the first this many characters of words. */
const FRANC_LENGTH = 600;

/**
 * The script the text is written in: Latin unless at least half its letters are of other scripts,
 * then the commonest of those; null without letters.
 */
function mainScript(text: string): Script | null {
  // Vowel signs count with their letters (a Devanagari or Tamil word is as long as it is written).
  const count = (re: RegExp) => text.match(re)?.length ?? 0;
  const total = count(/[\p{L}\p{M}]/gu) - count(/\p{Script=Inherited}/gu);
  if (total <= 0) return null;
  const latin = count(/[\p{Script=Latin}]/gu);
  if (latin * 2 > total) return "latin";
  const others: [Script, number][] = [
    ["devanagari", count(/\p{Script=Devanagari}/gu)],
    ["tamil", count(/\p{Script=Tamil}/gu)],
    ["arabic", count(/\p{Script=Arabic}/gu)],
  ];
  const known = others.reduce((n, [, c]) => n + c, 0);
  others.push(["other", total - latin - known]);
  return others.sort((a, b) => b[1] - a[1])[0]![0];
}

function stopWordCounts(words: readonly string[]): Map<LatinLanguage, number> {
  const counts = new Map<LatinLanguage, number>();
  for (const language of LATIN_LANGUAGES) {
    const list = STOP_WORDS.get(language)!;
    counts.set(language, words.filter((w) => list.has(w)).length);
  }
  return counts;
}

/** The Latin-script rules (2 to 4 above). */
function latinLanguage(text: string): LatinLanguage | "hi" | null {
  // Words written in letters only, two or more: letters spelt out ("k y s", "f.u.c.k") and
  // leetspeak ("y0u", "f@ck") tell nothing about the language.
  const words = text
    .normalize("NFC")
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}]+|[^\p{L}\p{M}]+$/gu, "").replace(/['’].*$/u, ""))
    .filter((w) => w.length >= 2 && /^[\p{Script=Latin}\p{M}-]+$/u.test(w));
  if (words.length < MIN_LATIN_WORDS) return null;
  const stops = stopWordCounts(words);
  const hindi = words.filter((w) => ROMANISED_HINDI_STOP_WORDS.has(w)).length;
  if (hindi >= 2 && [...stops.values()].every((n) => hindi > n)) return "hi";
  const scores = new Map(francAll(words.join(" ").slice(0, FRANC_LENGTH), { only: FRANC_ONLY, minLength: 1 }));
  let guess: LatinLanguage = "en";
  let best = -1;
  for (const [code, score] of scores) {
    if (score > best) [guess, best] = [FRANC_CODES.get(code) ?? "en", score];
  }
  if (guess === "en") return "en";
  if (stops.get(guess)! > stops.get("en")!) return guess;
  if (stops.get("en")! > 0) return "en";
  return (scores.get("eng") ?? 0) >= ENGLISH_CLOSE * best ? "en" : guess;
}

const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/gu;

/**
 * Cyrillic and Greek letters read as the Latin letters they look like ("уоu аrе"), when every one
 * of them looks like a Latin letter: text really written in Cyrillic or Greek always has others.
 */
function undisguised(text: string): string {
  const foreign = text.match(CYRILLIC_OR_GREEK);
  if (!foreign?.every((c) => /^\p{Script=Latin}$/u.test(foldText(c)))) return text;
  return text.replace(CYRILLIC_OR_GREEK, (c) => foldText(c));
}

/** The language of a comment's text (see the header). */
export function detectLanguage(text: string): LanguageReading {
  const plain = undisguised(text.slice(0, DETECTED_LENGTH))
    .replace(MARKUP, " ")
    .replace(new RegExp(URL_IN_TEXT.source, URL_IN_TEXT.flags), " ")
    .replace(EMAIL, " ");
  const script = mainScript(plain);
  if (script === null) return { language: null, script: null };
  if (script !== "latin") return { language: SCRIPT_LANGUAGE.get(script) ?? "other", script };
  return { language: latinLanguage(plain), script };
}
