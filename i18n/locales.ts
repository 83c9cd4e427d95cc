/**
 * The locales Masthead ships for readers (docs/i18n.md), and how one is chosen: a BCP 47 tag is
 * matched exactly (case-insensitive), then by its language alone ("pt" and "pt-PT" → "pt-BR",
 * "es-MX" → "es", "hi-IN" → "hi"). Pure: the widgets' loader, the member pages and mail use it.
 */
export const LOCALES = ["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

const RTL = new Set<Locale>(["ar"]);

/** Each locale's name in its own language, for a reader choosing one. */
export const LOCALE_NAMES: ReadonlyMap<Locale, string> = new Map<Locale, string>([
  ["en", "English"],
  ["hi", "हिन्दी"],
  ["ta", "தமிழ்"],
  ["es", "Español"],
  ["fr", "Français"],
  ["de", "Deutsch"],
  ["pt-BR", "Português (Brasil)"],
  ["ar", "العربية"],
]);

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function directionOf(locale: Locale): "ltr" | "rtl" {
  return RTL.has(locale) ? "rtl" : "ltr";
}

const TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

/** The offered locale a BCP 47 tag names, or null: exact first, then the same language. */
export function matchLocale(tag: string | null | undefined, offered: readonly Locale[] = LOCALES): Locale | null {
  if (!tag) return null;
  const trimmed = tag.trim();
  if (!TAG.test(trimmed)) return null;
  const lower = trimmed.toLowerCase().replace(/_/g, "-");
  const exact = BY_LOWER.get(lower);
  if (exact && offered.includes(exact)) return exact;
  const language = lower.split("-")[0];
  return offered.find((l) => l.toLowerCase().split("-")[0] === language) ?? null;
}

/** The tags of an Accept-Language header, best first (q=0 left out); at most 20 are read. */
export function acceptedTags(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1000)
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((t) => TAG.test(t.tag) && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

/**
 * The first of `candidates` (tags, best first: a reader's saved choice, a container attribute, the
 * page's lang, Accept-Language's tags…) that an offered locale matches, else `fallback`.
 */
export function chooseLocale(
  candidates: readonly (string | null | undefined)[],
  offered: readonly Locale[],
  fallback: Locale,
): Locale {
  for (const candidate of candidates) {
    const match = matchLocale(candidate, offered);
    if (match) return match;
  }
  return fallback;
}
