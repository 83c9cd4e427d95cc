/**
 * Cutting reader and editor text for display without splitting a character as the reader sees
 * it: a grapheme cluster ("क्षि", "👩🏽‍💻", "🇮🇳", "é" written e + ◌́) is kept whole or left out whole.
 * `.slice(0, n)` cuts between UTF-16 code units, which can leave half an emoji (a lone surrogate,
 * shown as �), a Devanagari consonant without its vowel sign, or a family emoji turned into
 * its members.
 *
 * Limits are in UTF-16 code units, as String#length and the schemas' `.max()` count: a cut text
 * fits wherever the uncut text's limit applied. Only the first `max` code units (and the code point
 * after them) are segmented, once, and the walk stops at the limit: the cost is that of the kept
 * part, whatever the text's length.
 * Imports nothing: the dashboard's forms use it too.
 */

type Segment = { segment: string; index: number };

/**
 * Graphemes of `text`: Intl.Segmenter's, or where a browser lacks it (Firefox before 125, in the
 * widgets), a code point with the marks, joiners and what they join after it.
 */
let segmenter: Intl.Segmenter | undefined;
const graphemesOf: (text: string) => Iterable<Segment> =
  typeof Intl.Segmenter === "function"
    ? (text) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(text)
    : (text) =>
        [...text.matchAll(/[\s\S](?:[\p{M}\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}]|\u200d[\s\S])*/gu)].map((m) => ({
          segment: m[0],
          index: m.index,
        }));

/**
 * Where `text` is cut to at most `max` code units: the end of the last whole grapheme that fits,
 * and the start of the last whitespace grapheme before it (0 when none), for cuts between words.
 */
function cutPoints(text: string, max: number): { end: number; space: number } {
  let end = 0;
  let space = 0;
  // Only the window is segmented (Intl.Segmenter copies the whole text it is given): whether a
  // boundary falls at position p depends on the text before p and the code point at p, which
  // ends by max + 2.
  for (const { segment, index } of graphemesOf(text.slice(0, max + 2))) {
    if (index + segment.length > max) break;
    if (/^\s+$/u.test(segment)) space = index;
    end = index + segment.length;
  }
  return { end, space };
}

/** The longest prefix of `text` of at most `max` code units that ends on a grapheme boundary. */
export function graphemePrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, cutPoints(text, max).end);
}

type TruncateOptions = {
  /** Ends a cut text ("…" unless given); counts towards the limit. */
  ellipsis?: string;
  /** Cut before the last word that does not fit whole, when that keeps at least 60% of the limit. */
  atWord?: boolean;
};

/**
 * `text` cut to at most `max` code units on a grapheme boundary, ending in the ellipsis ("…")
 * when cut (the ellipsis counts towards `max`; the whitespace before it is dropped). The text as
 * it is when it fits.
 */
export function truncateGraphemes(text: string, max: number, options: TruncateOptions = {}): string {
  if (text.length <= max) return text;
  const ellipsis = options.ellipsis ?? "…";
  if (ellipsis.length > max) return graphemePrefix(text, max);
  const { end, space } = cutPoints(text, max - ellipsis.length);
  const cutsWord = !/^\s/u.test(text.slice(end, end + 1));
  const keep = options.atWord && cutsWord && space > (max - ellipsis.length) * 0.6 ? space : end;
  return text.slice(0, keep).trimEnd() + ellipsis;
}

/** The first grapheme of `text` (an initial for an avatar, a masked address): "" for "". */
export function firstGrapheme(text: string): string {
  for (const { segment } of graphemesOf(text.slice(0, 64))) return segment;
  return "";
}
