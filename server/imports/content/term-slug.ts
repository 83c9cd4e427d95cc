/**
 * The slug of an imported tag, section or author, from its name in any script.
 *
 * Masthead's slugs keep the letters, marks and digits of every script and fold Latin accents
 * (text/slug.ts). The export's own slug is read first (WordPress writes a non-ASCII one
 * percent-encoded: "%e0%a4%ad…" is decoded), else the name. That text's slug is the slug
 * ("भारत 2024" → "भारत-2024", "Café" → "cafe"), unless the text holds symbols the slug drops
 * (emoji and other non-ASCII symbols: "🔥", "Cup 🏆"): then the slug is that slug, if any, then "-" and
 * eight hex digits of the SHA-256 of the whole source text (NFC, lower case): stable from run to
 * run and from one export to the next, and two names that differ only in those symbols ("🔥",
 * "🎭") never share a slug.
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

/** Non-ASCII symbols (emoji…), which slugify drops. */
function losesCharacters(text: string): boolean {
  return /[^\x00-\x7F]/u.test(text.normalize("NFKC").replace(/[^\p{S}]/gu, ""));
}

/** The slug of a term named `name` whose export slug is `slug` (see the file's comment); "" when both are blank. */
export function termSlug(name: string, slug = ""): string {
  const source = decodeSlug(slug.trim()).trim() || name.trim();
  if (source === "") return "";
  const whole = slugify(source, SLUG_MAX);
  if (whole !== "" && !losesCharacters(source)) return whole;
  const hash = createHash("sha256").update(source.normalize("NFC").toLowerCase()).digest("hex").slice(0, 8);
  const head = slugify(source, SLUG_MAX - SUFFIX);
  return head ? `${head}-${hash}` : hash;
}
