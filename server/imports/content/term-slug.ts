/**
 * The slug of an imported tag, section or author, from its name in any script.
 *
 * Masthead's slugs are lower-case ASCII letters, digits and hyphens (the dashboard's rule,
 * organise.schema.ts). The export's own slug is read first (WordPress writes a non-ASCII one
 * percent-encoded: "%e0%a4%ad…" is decoded), else the name. When it folds to ASCII without losing
 * a letter, digit or symbol ("Café" → "cafe"), that is the slug. When it holds any the ASCII form
 * would drop (Devanagari, Tamil, Arabic, Han, emoji…), the slug is the ASCII part, if any, then
 * "-" and eight hex digits of the SHA-256 of the whole source text (NFC, lower case): stable from
 * run to run and from one export to the next, and two names that differ only in those letters
 * ("भारत 2024", "चीन 2024") never share a slug.
 */
import { createHash } from "node:crypto";

import { slugify } from "../../text/slug";

/** Longest slug (organise.schema.ts's limit), the hash suffix included. */
const SLUG_MAX = 100;
const SUFFIX = 9; // "-" and 8 hex digits

/** A slug as WordPress writes it (percent-encoded when not ASCII), decoded; as it is when malformed. */
export function decodeSlug(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Letters, digits and symbols (emoji) left after ASCII folding, which slugify would drop. */
function losesCharacters(text: string): boolean {
  const folded = text.normalize("NFKD").replace(/\p{M}/gu, "");
  return /[^\x00-\x7F]/u.test(folded.replace(/[^\p{L}\p{N}\p{S}]/gu, ""));
}

/** The slug of a term named `name` whose export slug is `slug` (see the file's comment); "" when both are blank. */
export function termSlug(name: string, slug = ""): string {
  const source = decodeSlug(slug.trim()).trim() || name.trim();
  if (source === "") return "";
  const ascii = slugify(source, SLUG_MAX);
  if (ascii !== "" && !losesCharacters(source)) return ascii;
  const hash = createHash("sha256").update(source.normalize("NFC").toLowerCase()).digest("hex").slice(0, 8);
  const head = slugify(source, SLUG_MAX - SUFFIX);
  return head ? `${head}-${hash}` : hash;
}
