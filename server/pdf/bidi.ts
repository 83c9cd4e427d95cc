/**
 * The visual order of one line of text (docs/i18n.md "PDFs"): a reduced Unicode Bidirectional
 * Algorithm (UAX #9) for a single paragraph without explicit embeddings or isolates, which is all
 * a document line holds (labels, names, amounts, dates). Pure.
 *
 * What it does: the character types are resolved (W1–W7: marks take their base's type, European
 * digits after Arabic letters become Arabic numbers, a single separator between two numbers joins
 * them, currency and percent signs next to digits join the number), neutrals take the direction of
 * the strong text around them or the paragraph's (N1–N2), levels are given (I1–I2: 0 or 1 for the
 * paragraph, 2 for numbers and left-to-right text inside right-to-left), trailing spaces go back to
 * the paragraph level (L1), and the runs are reordered (L2). Mirrored brackets in a right-to-left
 * run are swapped (L4) by the caller when it reverses a run itself.
 *
 * What it leaves out: explicit embeddings, overrides and isolates (LRE, RLO, LRI… are treated as
 * neutrals), bracket pairs (N0), and character types are read from Unicode scripts and general
 * categories rather than the Bidi_Class table, which JavaScript does not expose: letters of right-
 * to-left scripts are R, other letters L, ASCII and extended Arabic-Indic digits EN, Arabic-Indic
 * digits AN, the separators and terminators below by their code points.
 */

type BidiType = "L" | "R" | "AL" | "EN" | "AN" | "ES" | "ET" | "CS" | "NSM" | "WS" | "ON";

const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Samaritan}\p{Script=Nko}\p{Script=Mandaic}]/u;
const ARABIC_LETTER = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u;
const AN = /[\u0600-\u0605\u0660-\u0669\u066B\u066C\u06DD\u0890\u0891\u08E2]/u;
const EN = /[0-9\u00B2\u00B3\u00B9\u06F0-\u06F9\u2070\u2074-\u2079\u2080-\u2089\uFF10-\uFF19]/u;
const ES = /[+\-\u207A\u207B\u208A\u208B\u2212\uFB29\uFE62\uFE63\uFF0B\uFF0D]/u;
const ET =
  /[#$%\u00A2-\u00A5\u00B0\u00B1\u0609\u060A\u066A\u09F2\u09F3\u0AF1\u0BF9\u0E3F\u17DB\u2030-\u2034\u20A0-\u20CF\u212E\u2213\uFE5F\uFE69\uFE6A\uFF03-\uFF05\uFFE0\uFFE1\uFFE5\uFFE6]/u;
const CS = /[,./:\u00A0\u060C\u202F\u2044\uFE50\uFE52\uFE55\uFF0C\uFF0E\uFF0F\uFF1A]/u;
const NSM = /[\p{Mn}\p{Me}\u200C\u200D]/u;
const WS = /[\s\u2028\u2029]/u;

/** A code point's bidirectional type (see the file's comment for how it is read). */
function typeOf(char: string): BidiType {
  if (char === "\u200F") return "R";
  if (char === "\u061C") return "AL";
  if (char === "\u200E") return "L";
  if (NSM.test(char)) return "NSM";
  if (AN.test(char)) return "AN";
  if (EN.test(char)) return "EN";
  if (ARABIC_LETTER.test(char) && /[\p{L}\p{Mc}]/u.test(char)) return "AL";
  if (RTL_LETTER.test(char) && /[\p{L}\p{Mc}]/u.test(char)) return "R";
  if (/[\p{L}\p{Mc}\p{Nd}\p{Nl}]/u.test(char)) return "L";
  if (ES.test(char)) return "ES";
  if (ET.test(char) || /\p{Sc}/u.test(char)) return "ET";
  if (CS.test(char)) return "CS";
  if (WS.test(char)) return "WS";
  return "ON";
}

const isStrongRtl = (t: BidiType) => t === "R" || t === "AL";

/** The paragraph direction a text's first strong character gives (P2–P3), or `fallback`. */
export function textDirection(text: string, fallback: "ltr" | "rtl"): "ltr" | "rtl" {
  for (const char of text) {
    const t = typeOf(char);
    if (t === "L") return "ltr";
    if (isStrongRtl(t)) return "rtl";
  }
  return fallback;
}

/** The resolved embedding level of each code point of `chars` (W1–W7, N1–N2, I1–I2, L1). */
function levelsOf(chars: readonly string[], paragraph: 0 | 1): number[] {
  const sos: BidiType = paragraph ? "R" : "L";
  const types = chars.map(typeOf);
  const n = types.length;
  // W1: a mark takes the type of what it marks.
  for (let i = 0; i < n; i++) if (types[i] === "NSM") types[i] = i === 0 ? sos : types[i - 1]!;
  // W2: European digits after an Arabic letter are Arabic numbers. W3: AL is R.
  let lastStrong: BidiType = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (t === "L" || t === "R" || t === "AL") lastStrong = t;
    else if (t === "EN" && lastStrong === "AL") types[i] = "AN";
  }
  for (let i = 0; i < n; i++) if (types[i] === "AL") types[i] = "R";
  // W4: one separator between two numbers of a kind joins them.
  for (let i = 1; i < n - 1; i++) {
    const [before, t, after] = [types[i - 1], types[i], types[i + 1]];
    if (t === "ES" && before === "EN" && after === "EN") types[i] = "EN";
    else if (t === "CS" && before === after && (before === "EN" || before === "AN")) types[i] = before!;
  }
  // W5: terminators next to European digits join them.
  for (let i = 0; i < n; i++) {
    if (types[i] !== "ET") continue;
    let j = i;
    while (j < n && types[j] === "ET") j++;
    if ((i > 0 && types[i - 1] === "EN") || (j < n && types[j] === "EN")) types.fill("EN", i, j);
    i = j - 1;
  }
  // W6: other separators and terminators are neutral.
  for (let i = 0; i < n; i++) if (types[i] === "ES" || types[i] === "ET" || types[i] === "CS") types[i] = "ON";
  // W7: European digits after left-to-right text are left to right.
  lastStrong = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (t === "L" || t === "R") lastStrong = t;
    else if (t === "EN" && lastStrong === "L") types[i] = "L";
  }
  // N1–N2: neutrals between text of one direction take it (numbers count as R), else the paragraph's.
  const strongOf = (t: BidiType | undefined): "L" | "R" | null =>
    t === "L" ? "L" : t === "R" || t === "EN" || t === "AN" ? "R" : null;
  for (let i = 0; i < n; i++) {
    if (strongOf(types[i]) !== null) continue;
    let j = i;
    while (j < n && strongOf(types[j]) === null) j++;
    const before = i === 0 ? sos : strongOf(types[i - 1])!;
    const after = j === n ? sos : strongOf(types[j])!;
    types.fill(before === after ? before : sos, i, j);
    i = j - 1;
  }
  // I1–I2.
  const levels = types.map((t) => {
    if (paragraph === 0) return t === "R" ? 1 : t === "AN" || t === "EN" ? 2 : 0;
    return t === "L" || t === "EN" || t === "AN" ? 2 : 1;
  });
  // L1: spaces at the end of the line are at the paragraph's level.
  for (let i = n - 1; i >= 0 && WS.test(chars[i]!); i--) levels[i] = paragraph;
  return levels;
}

/** A stretch of the line at one level: `rtl` when it reads right to left. */
type BidiRun = { text: string; rtl: boolean };

/**
 * One line of text as runs in visual order, left to right on the page; each run's own text in
 * logical order (a right-to-left run is drawn reversed by its shaper, or by the caller).
 */
export function visualRuns(line: string, direction: "ltr" | "rtl"): BidiRun[] {
  const chars = [...line];
  if (chars.length === 0) return [];
  const levels = levelsOf(chars, direction === "rtl" ? 1 : 0);
  const runs: { text: string; level: number }[] = [];
  chars.forEach((char, i) => {
    const last = runs.at(-1);
    if (last && last.level === levels[i]) last.text += char;
    else runs.push({ text: char, level: levels[i]! });
  });
  // L2: from the highest level down to the lowest odd one, reverse every stretch at that level or higher.
  const highest = Math.max(...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]!.level < level) continue;
      let j = i;
      while (j < runs.length && runs[j]!.level >= level) j++;
      const reversed = runs.slice(i, j).reverse();
      runs.splice(i, j - i, ...reversed);
      i = j - 1;
    }
  }
  return runs.map((r) => ({ text: r.text, rtl: r.level % 2 === 1 }));
}

const MIRRORED = new Map([
  ["(", ")"],
  [")", "("],
  ["[", "]"],
  ["]", "["],
  ["{", "}"],
  ["}", "{"],
  ["<", ">"],
  [">", "<"],
  ["«", "»"],
  ["»", "«"],
  ["‹", "›"],
  ["›", "‹"],
]);

/** Brackets swapped for their mirror images (L4), for a right-to-left run its shaper reverses. */
export function mirrorBrackets(text: string): string {
  return [...text].map((c) => MIRRORED.get(c) ?? c).join("");
}

/**
 * A run's code points in reverse, for a run with nothing to shape (digits, signs, spaces) whose
 * shaper would lay it out the wrong way; `mirror` (a right-to-left run) swaps brackets (L4).
 */
export function reverseRun(text: string, mirror: boolean): string {
  const reversed = [...text].reverse().join("");
  return mirror ? mirrorBrackets(reversed) : reversed;
}
