/**
 * Slugs in any script: what stories, sections, tags, authors, collections and entities are found
 * by in URLs and API paths (docs/i18n.md, "Text in any script").
 *
 * The rule, applied by `slugify` to a name or headline:
 * 1. Compatibility forms are unfolded (NFKD: "ﬁ" → "fi", full-width "Ａ" → "A") and the text is
 *    lower-cased.
 * 2. Latin letters lose their diacritics ("Côte" → "cote"), and a few Latin letters that have no
 *    decomposition are spelt in ASCII: ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th,
 *    ı → i. Marks on ASCII digits (the keycap "1️⃣") go too.
 * 3. Letters, combining marks and digits of every other script are kept as written: Devanagari
 *    "भारत में चुनाव" → "भारत-में-चुनाव", Tamil, Arabic, Greek, Cyrillic, Han… A mark with no
 *    letter or digit before it is dropped. Zero-width joiners and non-joiners are removed.
 * 4. Every other run of characters (spaces, punctuation, symbols, emoji) becomes one hyphen;
 *    hyphens at either end are dropped.
 * 5. The result is composed (NFC) and cut to the maximum length (in UTF-16 code units, as the
 *    schemas count) on a grapheme boundary, never inside a grapheme ("क्षि" stays whole).
 *
 * A slug is valid when it is its own slug: lower case, NFC, letters, marks and digits in words
 * joined by single hyphens, no Latin diacritics (isSlug). Clients send such slugs percent-encoded
 * in URLs ("%E0%A4%AD…"); the content API decodes them (decodeSlugParam).
 * Imports nothing but the grapheme helper: the dashboard's forms use it too.
 */
import { graphemePrefix } from "./graphemes";

/** Words of letters, marks and digits (in any script) joined by single hyphens. */
export const SLUG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:-[\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*$/u;

const LATIN_SPELLING = new Map([
  ["ß", "ss"],
  ["æ", "ae"],
  ["œ", "oe"],
  ["ø", "o"],
  ["ł", "l"],
  ["đ", "d"],
  ["ð", "d"],
  ["þ", "th"],
  ["ı", "i"],
]);
const LATIN_SPELT = new RegExp(`[${[...LATIN_SPELLING.keys()].join("")}]`, "gu");

/** A slug made from `name` by the rule above; at most `maxLength` code units; "" when nothing is left. */
export function slugify(name: string, maxLength = 100): string {
  const words = name
    .normalize("NFKD")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u200c\u200d]/g, "")
    .replace(/([\p{Script=Latin}0-9])\p{M}+/gu, "$1")
    .replace(LATIN_SPELT, (letter) => LATIN_SPELLING.get(letter) ?? letter)
    .replace(/(^|[^\p{L}\p{M}\p{N}])\p{M}+/gu, "$1")
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .normalize("NFC");
  let slug = graphemePrefix(words, maxLength);
  // A hyphen left at the end by the cut goes with the whole grapheme it ends (a prepended letter
  // such as Malayalam's dot reph forms one grapheme with the hyphen after it).
  while (slug.endsWith("-")) slug = graphemePrefix(slug, slug.length - 1);
  return slug;
}

/** Whether `slug` is a slug by the rule: matches SLUG_PATTERN and is its own slug. */
export function isSlug(slug: string, maxLength = 100): boolean {
  return SLUG_PATTERN.test(slug) && slug.length <= maxLength && slugify(slug, maxLength) === slug;
}

/**
 * A slug as a client sent it in a path or query: percent-escapes decoded (a client or proxy that
 * encodes twice, or a router that passes the path as sent) and composed (NFC: a Mac's keyboard
 * may send decomposed text). As it is when the escapes are malformed.
 */
export function decodeSlugParam(value: string): string {
  let text = value;
  for (let i = 0; i < 2 && /%[0-9a-f]{2}/i.test(text); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text.normalize("NFC");
}
