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

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The longest prefix of `text` of at most `max` code units that ends on a grapheme boundary. */
export function graphemePrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  // Only the window is segmented (Intl.Segmenter copies the whole text it is given): whether a
  // boundary falls at position p depends on the text before p and the code point at p, which
  // ends by max + 2.
  for (const { segment, index } of segmenter.segment(text.slice(0, max + 2))) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/**
 * `text` cut to at most `max` code units on a grapheme boundary, ending in `ellipsis` ("…") when
 * cut: the ellipsis counts towards `max`, and the whitespace before it is dropped. The text as
 * it is when it fits.
 */
export function truncateGraphemes(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  if (ellipsis.length > max) return graphemePrefix(text, max);
  return graphemePrefix(text, max - ellipsis.length).trimEnd() + ellipsis;
}
