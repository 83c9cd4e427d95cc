/**
 * The languages moderation tells apart (docs/moderation.md, "Languages"): the eight languages
 * Masthead is written in (its locales; pt-BR is read as Portuguese), and "other" for a comment in
 * any other script. Pure (no zod needed): the dashboard's settings form imports it.
 */

/** Languages a comment may be read as; "other": a script none of them is written in (Cyrillic, Han…). */
export const COMMENT_LANGUAGES = ["en", "hi", "ta", "es", "fr", "de", "pt", "ar", "other"] as const;
export type CommentLanguage = (typeof COMMENT_LANGUAGES)[number];

/** The languages written in Latin script, which the trigram detector tells apart. */
export const LATIN_LANGUAGES = ["en", "es", "fr", "de", "pt"] as const;
export type LatinLanguage = (typeof LATIN_LANGUAGES)[number];

/** Each language's name in English (the dashboard's language is English). */
export const LANGUAGE_NAMES: ReadonlyMap<CommentLanguage, string> = new Map<CommentLanguage, string>([
  ["en", "English"],
  ["hi", "Hindi"],
  ["ta", "Tamil"],
  ["es", "Spanish"],
  ["fr", "French"],
  ["de", "German"],
  ["pt", "Portuguese"],
  ["ar", "Arabic"],
  ["other", "another language"],
]);

/**
 * The languages the built-in scorer's toxicity is measured on (docs/moderation.md "Report set
 * figures"): English only. A comment read as any other language is not scored for toxicity by it;
 * the account chooses what happens to such comments (`unscoredLanguages`).
 */
export const SCORED_LANGUAGES: ReadonlySet<CommentLanguage> = new Set<CommentLanguage>(["en"]);

/**
 * The languages with a shipped list of suspect words (language/shipped-words.ts, from the LDNOOBW
 * lists): Hindi's is written in Latin letters (romanised Hindi); Tamil, English and other
 * languages have none.
 */
export const SHIPPED_LIST_LANGUAGES: ReadonlySet<CommentLanguage> = new Set<CommentLanguage>([
  "es",
  "fr",
  "de",
  "pt",
  "ar",
  "hi",
]);
