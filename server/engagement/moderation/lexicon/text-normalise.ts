/**
 * The lexicon scorer's reading of a comment (docs/moderation.md, "The scorer"): the text folded to
 * plain lower-case letters and cut into words, so that the word lists and patterns see through the
 * usual disguises:
 * - look-alike letters: fullwidth forms, accents, Cyrillic and Greek letters that look Latin
 *   ("ѕhυt υр" → "shut up");
 * - letters spelt out one by one with the same separator ("f u c k", "m-o-r-o-n", "s.t.u.p.i.d");
 * - digits and signs for letters ("1d10t", "a$$hole", "b!tch") and masks ("f*ck", "c**t"), read
 *   as the listed word they can only be;
 * - stretched letters ("stuuuupid", "fuuuck"), and contractions ("you're" → "you are").
 * It also marks what is inside quotation marks, and which sentence and clause each word is in.
 */
import { CONTRACTIONS } from "./contractions";
import {
  DEHUMANISING_WORDS,
  FUNCTION_WORDS,
  GROUP_ADJECTIVES,
  GROUP_NOUNS,
  SMEAR_WORDS,
  WORD_KIND,
  type WordKind,
} from "./word-lists";

export type Token = {
  /** The word as matched (one or two words: contractions are expanded), or a punctuation mark. */
  text: string;
  punct: boolean;
  /** Inside quotation marks. */
  quoted: boolean;
  /** Written with digits, signs or masks for letters, spelt out letter by letter, or in look-alike letters. */
  disguised: boolean;
  sentence: number;
  clause: number;
};

export type NormalisedText = {
  tokens: Token[];
  /** The tokens' texts joined by single spaces. */
  canon: string;
  /** Where each token starts in `canon`. */
  offsets: number[];
};

// ─── folding ─────────────────────────────────────────────────────────────────────────────────

/** Cyrillic and Greek lower-case letters that pass for Latin ones. */
const LOOK_ALIKE_LETTERS: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  п: "n",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  ԁ: "d",
  ӏ: "l",
  ԛ: "q",
  ԝ: "w",
  ь: "b",
  α: "a",
  β: "b",
  γ: "y",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  μ: "u",
  ν: "v",
  ο: "o",
  ρ: "p",
  σ: "o",
  ς: "s",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ɑ: "a",
  ɡ: "g",
  ı: "i",
  ȷ: "j",
  ℓ: "l",
};
const LOOK_ALIKES = new Map(Object.entries(LOOK_ALIKE_LETTERS));
const LOOK_ALIKE_RE = new RegExp(`[${[...LOOK_ALIKES.keys()].join("")}]`, "gu");

/**
 * Compatibility forms (fullwidth, ligatures), accents removed, lower case (unless `keepCase`),
 * look-alike letters read as Latin, typographic quotes and dashes made plain, invisible characters
 * dropped.
 */
export function foldText(text: string, options: { keepCase?: boolean } = {}): string {
  const plain = text.normalize("NFKD").replace(/[\p{M}\u200B-\u200D\u2060\uFEFF\u00AD]/gu, "");
  return (options.keepCase ? plain : plain.toLowerCase())
    .replace(LOOK_ALIKE_RE, (c) => LOOK_ALIKES.get(c) ?? c)
    .replace(/[“”„‟«»″]/g, '"')
    .replace(/[‘’‚‛′`´]/g, "'")
    .replace(/[‐‑‒–—―−]/g, "-");
}

// ─── letters spelt out ───────────────────────────────────────────────────────────────────────

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const SPELT_CHAR = /[\p{L}\p{N}@$]/u;
const SPELT_SEPARATOR = /^[ .\-_·/]{1,3}$/;

/**
 * Runs of three or more single characters with the same separator between them, joined
 * ("f u c k" → "fuck"; "f u c k   y o u" → "fuck" and "you": the wider gap separates words).
 * Answers the joined text and the ranges of it that were spelt out.
 */
export function joinSpeltOut(text: string): { text: string; spelt: [number, number][] } {
  const singles: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    if (SPELT_CHAR.test(text[i]!) && !isWordChar(text[i - 1]) && !isWordChar(text[i + 1])) singles.push(i);
  }
  // Groups of singles with one separator between them.
  const groups: { from: number; to: number; separator: string }[] = [];
  let i = 0;
  while (i < singles.length) {
    let j = i;
    const separator = i + 1 < singles.length ? text.slice(singles[i]! + 1, singles[i + 1]) : "";
    if (SPELT_SEPARATOR.test(separator)) {
      while (j + 1 < singles.length && text.slice(singles[j]! + 1, singles[j + 1]) === separator) j += 1;
    }
    if (j > i) groups.push({ from: i, to: j, separator });
    i = j + 1;
  }
  // Three or more are spelt out; two only beside such a run with the same separator ("y o u  a r e  s o").
  const separators = new Set(groups.filter((g) => g.to - g.from >= 2).map((g) => g.separator));
  let out = "";
  const spelt: [number, number][] = [];
  let copied = 0;
  for (const group of groups) {
    if (group.to - group.from < 2 && !separators.has(group.separator)) continue;
    out += text.slice(copied, singles[group.from]);
    const start = out.length;
    for (let k = group.from; k <= group.to; k += 1) out += text[singles[k]!];
    spelt.push([start, out.length]);
    copied = singles[group.to]! + 1;
  }
  out += text.slice(copied);
  return { text: out, spelt };
}

// ─── quotations ──────────────────────────────────────────────────────────────────────────────

/** For each character, whether it is inside quotation marks ("…" or '…', not an apostrophe). */
export function quotedCharacters(text: string): boolean[] {
  const quoted = new Array<boolean>(text.length).fill(false);
  const mark = (from: number, to: number) => {
    for (let k = from; k <= to; k += 1) quoted[k] = true;
  };
  const doubles: number[] = [];
  for (let i = 0; i < text.length; i += 1) if (text[i] === '"') doubles.push(i);
  for (let k = 0; k + 1 < doubles.length; k += 2) mark(doubles[k]!, doubles[k + 1]!);

  let open = -1;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] !== "'") continue;
    const before = text[i - 1];
    const after = text[i + 1];
    const opens =
      (before === undefined || /[\s([{:\-"]/.test(before)) && after !== undefined && /[\p{L}\p{N}]/u.test(after);
    const closes =
      before !== undefined &&
      /[\p{L}\p{N}.,!?*]/u.test(before) &&
      (after === undefined || /[\s.,;:!?)\]\-"]/.test(after));
    if (open < 0 && opens) open = i;
    else if (open >= 0 && closes) {
      if (!text.slice(open, i).includes("\n")) mark(open, i);
      open = -1;
    }
  }
  return quoted;
}

// ─── words ───────────────────────────────────────────────────────────────────────────────────

const LEET = new Map<string, string>(
  Object.entries({
    "0": "o",
    "1": "i",
    "3": "e",
    "4": "a",
    "5": "s",
    "7": "t",
    "8": "b",
    "9": "g",
    "@": "a",
    $: "s",
    "!": "i",
    "|": "l",
    "+": "t",
  }),
);
const MASK = /[*#_]/;
const NON_LETTER = /[^\p{L}']/u;

/** Words the resolution may land on: every list's words and the little words of the patterns. */
const KNOWN = new Set<string>([
  ...WORD_KIND.keys(),
  ...GROUP_NOUNS,
  ...GROUP_ADJECTIVES,
  ...DEHUMANISING_WORDS,
  ...SMEAR_WORDS,
  ...FUNCTION_WORDS,
]);
/** Words of the lists that a masked or stretched word may be read as, most offensive kinds first. */
const KIND_ORDER: WordKind[] = [
  "vulgar_noun",
  "strong",
  "intensifier",
  "slur",
  "mild",
  "insult_noun",
  "adjective",
  "sexual",
  "aimed_noun",
  "you_noun",
  "you_adjective",
  "clinical",
];
const wordsOfKind = (kind: WordKind) => [...WORD_KIND].filter(([, k]) => k === kind).map(([w]) => w);
const MASKABLE: string[] = [
  ...KIND_ORDER.slice(0, 3).flatMap(wordsOfKind),
  // A masked group name ("j00s") is read as the group before any slur it might also fit.
  ...GROUP_NOUNS,
  ...KIND_ORDER.slice(3).flatMap(wordsOfKind),
];
const LISTED = new Set<string>(MASKABLE);

/** Runs of three or more of one letter made one (c1) or two (c2) letters long. */
function destretch(word: string): { one: string; two: string } | null {
  if (!/(\p{L})\1\1/u.test(word)) return null;
  return { one: word.replace(/(\p{L})\1{2,}/gu, "$1"), two: word.replace(/(\p{L})\1{2,}/gu, "$1$1") };
}

/** A word of letters as listed: itself, or its stretched letters read once or twice. */
function readLetters(word: string): { text: string; changed: boolean } {
  if (KNOWN.has(word)) return { text: word, changed: false };
  const stretched = destretch(word);
  if (stretched) {
    if (KNOWN.has(stretched.two)) return { text: stretched.two, changed: true };
    return { text: stretched.one, changed: true };
  }
  // "fuuck", "idiiot": doubled letters read once, only when that makes a listed word.
  const single = word.replace(/(\p{L})\1/gu, "$1");
  if (single !== word && LISTED.has(single)) return { text: single, changed: true };
  return { text: word, changed: false };
}

const maskCache = new Map<string, string | null>();

/** The listed word a disguised word can be read as ("f*ck", "j00s", "1d10t"), or null. */
function readDisguised(word: string): string | null {
  const cached = maskCache.get(word);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  const leet = [...word].map((c) => LEET.get(c) ?? c).join("");
  if (!NON_LETTER.test(leet)) {
    const read = readLetters(leet);
    if (KNOWN.has(read.text)) found = read.text;
  }
  // Read as a wildcard: a mask of signs (f***, c**t) needs one letter; digits need as many letters
  // ("j00s"), so that "A38", "1930s" or "B2B" are left alone.
  const letters = (word.match(/\p{L}/gu) ?? []).length;
  const digits = (word.match(/\p{N}/gu) ?? []).length;
  const enoughLetters = digits === 0 ? letters >= 1 : letters >= 2 && letters >= digits;
  if (found === null && enoughLetters && word.length >= 3) {
    const source = [...word].map((c) => (/\p{L}/u.test(c) ? c : MASK.test(c) || LEET.has(c) ? "." : c)).join("");
    const re = new RegExp(`^${source.replace(/[$^+?()[\]{}|\\]/g, "\\$&")}$`, "u");
    found = MASKABLE.find((w) => w.length === word.length && re.test(w)) ?? null;
    if (found === null && !NON_LETTER.test(leet)) found = readLetters(leet).text;
  }
  if (maskCache.size > 5_000) maskCache.clear();
  maskCache.set(word, found);
  return found;
}

/** Segments a spelt-out run ("fuckyou") into listed words, when it is made of them only. */
function segment(word: string): string[] | null {
  const best: (string[] | null)[] = new Array<string[] | null>(word.length + 1).fill(null);
  best[0] = [];
  for (let end = 1; end <= word.length; end += 1) {
    for (let start = Math.max(0, end - 16); start < end; start += 1) {
      const prefix = best[start];
      const piece = word.slice(start, end);
      if (prefix && KNOWN.has(piece) && (piece.length > 1 || piece === "u" || piece === "a" || piece === "i")) {
        if (!best[end] || best[end]!.length > prefix.length + 1) best[end] = [...prefix, piece];
      }
    }
  }
  return best[word.length] ?? null;
}

const WORD_RE = /[$€£¥]?\d+(?:[.,]\d+)+\p{L}*|[\p{L}\p{N}@$*#|+_'!]+(?:-[\p{L}\p{N}@$*#|+_'!]+)*|[.!?;:,=()\n]/gu;
const NUMBER_LIKE = /^[$€£¥]?\d[\d.,]*(?:k|m|bn|%)?$/u;
const ELISION = /^(qu|[ldjtnsmc])'(?=\p{L})/u;

type RawWord = { text: string; quoted: boolean; spelt: boolean };

/** Reads one written word into one or more words (or none), with whether it was disguised. */
function readWord(raw: string, spelt: boolean): { text: string; disguised: boolean }[] {
  let word = raw.replace(/^'+|'+$/g, "");
  if (word === "") return [];
  const elision = ELISION.exec(word);
  if (elision) {
    const head = elision[0];
    const expanded = CONTRACTIONS.get(head);
    return [...(expanded ? [{ text: expanded, disguised: false }] : []), ...readWord(word.slice(head.length), spelt)];
  }
  if (NUMBER_LIKE.test(word)) return [{ text: word, disguised: false }];
  if (word.includes("-")) {
    const joined = word.replace(/-/g, "");
    if (!KNOWN.has(joined)) return word.split("-").flatMap((part) => readWord(part, spelt));
    word = joined;
  }
  const hasLetters = /\p{L}/u.test(word);
  const plain = !/[^\p{L}']/u.test(word);
  let text: string;
  let disguised = spelt;
  if (plain) {
    const read = readLetters(word);
    text = read.text;
  } else if (hasLetters || /[013457@$]/.test(word)) {
    const read = readDisguised(word);
    if (read !== null) {
      text = read;
      disguised = true;
    } else {
      text = word;
    }
  } else {
    return [];
  }
  if (spelt && !KNOWN.has(text) && text.length <= 40) {
    const pieces = segment(text);
    if (pieces && pieces.length > 1) return pieces.map((piece) => ({ text: piece, disguised: true }));
  }
  const expanded = CONTRACTIONS.get(text);
  if (expanded) return expanded.split(" ").map((part) => ({ text: part, disguised }));
  return [{ text, disguised }];
}

const SENTENCE_END = new Set([".", "!", "?", ";", "\n"]);
const CLAUSE_END = new Set([",", ":", "(", ")"]);

/** The comment as the lists and patterns read it. */
export function normalise(text: string): NormalisedText {
  const joined = joinSpeltOut(foldText(text));
  const folded = joined.text;
  const quoted = quotedCharacters(folded);
  const spelt = new Array<boolean>(folded.length).fill(false);
  for (const [from, to] of joined.spelt) for (let k = from; k < to; k += 1) spelt[k] = true;

  const raws: (RawWord & { punct: boolean })[] = [];
  for (const match of folded.matchAll(WORD_RE)) {
    const value = match[0];
    const at = match.index;
    if (value.length === 1 && /[.!?;:,=()\n]/.test(value)) {
      raws.push({ text: value, quoted: quoted[at]!, spelt: false, punct: true });
      continue;
    }
    // Trailing and leading exclamation marks are punctuation, inner ones letters ("b!tch").
    const lead = /^!+/.exec(value)?.[0].length ?? 0;
    const trail = /!+$/.exec(value.slice(lead))?.[0].length ?? 0;
    const core = value.slice(lead, value.length - trail);
    if (lead > 0) raws.push({ text: "!", quoted: quoted[at]!, spelt: false, punct: true });
    if (core) raws.push({ text: core, quoted: quoted[at + lead]!, spelt: spelt[at + lead]!, punct: false });
    if (trail > 0) raws.push({ text: "!", quoted: quoted[at + value.length - 1]!, spelt: false, punct: true });
  }

  const tokens: Token[] = [];
  let sentence = 0;
  let clause = 0;
  let previousQuoted = false;
  for (const raw of raws) {
    if (raw.quoted !== previousQuoted) clause += 1;
    previousQuoted = raw.quoted;
    if (raw.punct) {
      const mark = raw.text === "\n" ? "." : raw.text === "(" || raw.text === ")" ? "," : raw.text;
      if (tokens.length > 0 && tokens[tokens.length - 1]!.punct && tokens[tokens.length - 1]!.text === mark) continue;
      tokens.push({ text: mark, punct: true, quoted: raw.quoted, disguised: false, sentence, clause });
      if (SENTENCE_END.has(raw.text)) {
        sentence += 1;
        clause += 1;
      } else if (CLAUSE_END.has(raw.text)) {
        clause += 1;
      }
      continue;
    }
    for (const word of readWord(raw.text, raw.spelt)) {
      tokens.push({ text: word.text, punct: false, quoted: raw.quoted, disguised: word.disguised, sentence, clause });
    }
  }
  const offsets: number[] = [];
  let canon = "";
  for (const token of tokens) {
    if (canon) canon += " ";
    offsets.push(canon.length);
    canon += token.text;
  }
  return { tokens, canon, offsets };
}

/** The index of the token at `offset` of `canon` (the last token starting at or before it). */
export function tokenAt(normalised: NormalisedText, offset: number): number {
  const { offsets } = normalised;
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Letters, and the share of them in capitals. */
export function capitals(text: string): { letters: number; upperShare: number } {
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = letters.filter((l) => l !== l.toLowerCase() && l === l.toUpperCase()).length;
  return { letters: letters.length, upperShare: letters.length ? upper / letters.length : 0 };
}
