/**
 * An account's banned and suspect words (docs/engagement.md, "Moderation settings"): each word or
 * phrase is "reject" (the comment is refused, 400), "hold" (it waits for a moderator) or "flag" (a
 * suspect word: the comment is published, and waits in the moderators' Reported tab until one
 * decides). The dashboard edits each action's words as a pasted list, one per line. The shipped
 * lists of other languages (../language/shipped-words.ts) are matched the same way.
 *
 * A word matches as a whole word or phrase, in any script, after the same reading of the text and
 * of the word (docs/moderation.md, "Languages"):
 *
 * - a word is a run of letters, marks and digits (so "don't" is "don t"): the words Unicode's word
 *   boundaries give in spaced scripts, with vowel signs inside them; runs of the scripts written
 *   without spaces are cut by `Intl.Segmenter`;
 * - compatibility forms (NFKC); accents removed from Latin, Greek and Cyrillic letters only: the
 *   vowel signs of Devanagari or Tamil are letters of the word, never removed; invisible joiners
 *   dropped; in Arabic script the short vowels and tatweel are dropped and alef forms made one
 *   (أ إ آ ٱ → ا, ى → ي); in Devanagari the nukta is dropped and chandrabindu read as anusvara;
 * - lower case; the usual leetspeak digits and signs read as letters (0→o, 1→i, 3→e, 4→a, 5→s,
 *   7→t, @→a, $→s); every run of one letter reduced to one letter ("baaad" → "bad").
 *
 * So "Sp4mmy Brand" matches "spammy brand", and "cunt" does not match "Scunthorpe". Two exceptions
 * to "whole word": a listed Arabic word of three letters or more also matches with a proclitic
 * written onto it (و ف ب ل ك ال وال فال بال كال لل يا: "الحمار" for "حمار"; a shorter one would
 * take other words for it: "كان", was, for "أن", that), and a word of a script written without spaces
 * (Chinese, Japanese, Thai, Lao, Khmer, Burmese) matches wherever it stands.
 */
type BannedWordAction = "reject" | "hold" | "flag";
export type BannedWord = { word: string; action: BannedWordAction };

/** A word of a text as the lists read it, and where it stands in the text (UTF-16 offsets). */
type ReadWord = { word: string; start: number; end: number };

const LEET = new Map(Object.entries({ "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t" }));
const SEGMENTER = new Intl.Segmenter("und", { granularity: "word" });

const ACCENTED = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
/** Arabic short vowels, Quranic marks and tatweel: written or not, the word is the same. */
const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;
const ALEFS = /[\u0622\u0623\u0625\u0671]/g;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const UNSPACED =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{M}]+$/u;
const UNSPACED_LETTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const ARABIC_WORD = /^\p{Script=Arabic}/u;
/** Proclitics written onto an Arabic word: and, so, with, for, like, the, and the… , O (vocative). */
const ARABIC_PROCLITICS = ["و", "ف", "ب", "ل", "ك", "ال", "وال", "فال", "بال", "كال", "لل", "يا"];
/** Whether a listed word (normalised) is read under a proclitic too: an Arabic word of 3 letters or more. */
const takesProclitics = (word: string) => ARABIC_WORD.test(word) && [...word].length >= 3;

/** One piece of a word (letters, marks, digits) as the lists compare it; may read as several words. */
function foldPiece(piece: string): string[] {
  // Plain ASCII letters and digits (most words of most comments): lower case, leetspeak, stretching.
  if (/^[A-Za-z0-9]+$/.test(piece)) {
    const word = piece
      .toLowerCase()
      .replace(/[013457]/g, (c) => LEET.get(c) ?? c)
      .replace(/([a-z])\1+/g, "$1");
    return [word];
  }
  const folded = piece
    .normalize("NFKD")
    .replace(ACCENTED, "$1")
    .replace(INVISIBLE, "")
    .replace(ARABIC_MARKS, "")
    .replace(ALEFS, "\u0627")
    .replace(/\u0649/g, "\u064A")
    .replace(/\u093C/g, "")
    .replace(/\u0901/g, "\u0902")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[013457]/g, (c) => LEET.get(c) ?? c);
  return folded
    .split(NOT_WORD)
    .map((w) => w.replace(/(\p{L})\1+/gu, "$1"))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** A run of letters, marks and digits (joiners kept: they sit inside Devanagari and Arabic words). */
const PIECE = /[\p{L}\p{M}\p{N}\u200C\u200D]+/gu;
/** Runs longer than this are not handed to the segmenter (V8's takes quadratic time on long text). */
const SEGMENTED_MAX = 256;

/**
 * The words of `text` as the lists read them, each with its place in `text`: runs of letters,
 * marks and digits ("@" and "$" count as letters, for leetspeak), so any sign or space ends a word.
 * In the scripts written without spaces a run is cut into words by `Intl.Segmenter`. For the
 * other scripts the segmenter's words are these runs (Unicode word boundaries fall at the same
 * signs): it is not asked, since its time grows with the square of the text.
 */
export function readWords(text: string): ReadWord[] {
  // Same length as the text, so offsets are the text's.
  const leet = text.replace(/[@$]/g, (c) => (c === "@" ? "a" : "s"));
  const out: ReadWord[] = [];
  // A comment says the same words again: each is folded once.
  const folded = new Map<string, string[]>();
  const push = (piece: string, start: number) => {
    let words = folded.get(piece);
    if (words === undefined) {
      words = foldPiece(piece);
      folded.set(piece, words);
    }
    for (const word of words) out.push({ word, start, end: start + piece.length });
  };
  for (const m of leet.matchAll(PIECE)) {
    if (m[0].length > SEGMENTED_MAX || !UNSPACED_LETTER.test(m[0])) {
      push(m[0], m.index);
      continue;
    }
    for (const segment of SEGMENTER.segment(m[0])) {
      if (segment.isWordLike) push(segment.segment, m.index + segment.index);
    }
  }
  return out;
}

/** The form text and words are compared in (" word word "); words that normalise to nothing cannot match. */
export function normaliseForBannedWords(text: string): string {
  const words = readWords(text).map((w) => w.word);
  return words.length ? ` ${words.join(" ")} ` : "";
}

const STRICTNESS: Record<BannedWordAction, number> = { flag: 1, hold: 2, reject: 3 };

/** Listed words normalised once (the same lists are read by every comment of an account). */
const needles = new Map<string, string[]>();
function needleOf(word: string): string[] {
  let parts = needles.get(word);
  if (parts === undefined) {
    parts = readWords(word).map((w) => w.word);
    if (needles.size >= 20_000) needles.clear();
    needles.set(word, parts);
  }
  return parts;
}

/** The ways a listed word (its parts) may be written in a text's normalised form. */
function spellings(parts: readonly string[]): { spaced: string[]; unspaced: string | null } {
  const body = parts.join(" ");
  if (parts.every((p) => UNSPACED.test(p))) return { spaced: [], unspaced: parts.join("") };
  const first = parts[0]!;
  const prefixed = takesProclitics(first) ? ARABIC_PROCLITICS.map((p) => ` ${p}${body} `) : [];
  return { spaced: [` ${body} `, ...prefixed], unspaced: null };
}

/** A text prepared once for every word of a list. */
type Haystack = { spaced: string; unspaced: string };
function haystackOf(text: string): Haystack {
  const spaced = normaliseForBannedWords(text);
  return { spaced, unspaced: spaced.replace(/ /g, "") };
}

function contains(haystack: Haystack, parts: readonly string[]): boolean {
  if (parts.length === 0 || !haystack.spaced) return false;
  const { spaced, unspaced } = spellings(parts);
  if (unspaced !== null) return haystack.unspaced.includes(unspaced);
  return spaced.some((s) => haystack.spaced.includes(s));
}

/** The strictest action among the listed words the text contains: "reject", "hold", "flag" or null. */
export function bannedWordAction(text: string, words: readonly BannedWord[]): BannedWordAction | null {
  if (words.length === 0) return null;
  const haystack = haystackOf(text);
  let found: BannedWordAction | null = null;
  for (const { word, action } of words) {
    if (!contains(haystack, needleOf(word))) continue;
    if (action === "reject") return "reject";
    if (found === null || STRICTNESS[action] > STRICTNESS[found]) found = action;
  }
  return found;
}

/** Whether the text contains any of `words` (each matched as above). */
export function containsAnyWord(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const haystack = haystackOf(text);
  return words.some((word) => contains(haystack, needleOf(word)));
}

/**
 * Where each listed word stands in `text` (offsets of the text as given), for the moderators'
 * highlights: the first and last written words a match covers.
 */
export function listedWordSpans<T extends { word: string }>(
  text: string,
  words: readonly T[],
): { start: number; end: number; listed: T }[] {
  const read = readWords(text);
  if (read.length === 0 || words.length === 0) return [];
  const spans: { start: number; end: number; listed: T }[] = [];
  for (const listed of words) {
    const parts = needleOf(listed.word);
    if (parts.length === 0) continue;
    const { unspaced } = spellings(parts);
    for (let i = 0; i < read.length; i += 1) {
      const match = unspaced !== null ? matchUnspaced(read, i, unspaced) : matchSpaced(read, i, parts);
      if (match > 0) spans.push({ start: read[i]!.start, end: read[i + match - 1]!.end, listed });
    }
  }
  return spans;
}

/** How many read words from `i` on spell `parts` (0: they do not). */
function matchSpaced(read: readonly ReadWord[], i: number, parts: readonly string[]): number {
  if (i + parts.length > read.length) return 0;
  const first = read[i]!.word;
  const head = parts[0]!;
  const headMatches = first === head || (takesProclitics(head) && ARABIC_PROCLITICS.some((p) => first === p + head));
  if (!headMatches) return 0;
  for (let k = 1; k < parts.length; k += 1) if (read[i + k]!.word !== parts[k]) return 0;
  return parts.length;
}

/** How many read words from `i` on hold `word` of an unspaced script, starting in the first (0: none). */
function matchUnspaced(read: readonly ReadWord[], i: number, word: string): number {
  let joined = "";
  for (let k = i; k < read.length; k += 1) {
    joined += read[k]!.word;
    const at = joined.indexOf(word);
    if (at >= 0) return at < read[i]!.word.length ? k - i + 1 : 0;
    if (joined.length >= word.length * 4 + 16) return 0;
  }
  return 0;
}
